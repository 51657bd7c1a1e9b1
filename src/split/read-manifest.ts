import type { Manifest } from "./manifest.ts";
import { manifestKey } from "./object-keys.ts";
import type { ObjectStore } from "./object-store.ts";

/**
 * Reads and parses the manifest of `name`, or resolves `null` when the file does not exist (no manifest:
 * an upload that never completed does not count).
 *
 * @example
 * ```ts
 * const manifest = await readManifest(store, "primes");
 * if (manifest) console.log(manifest.totals.numbers);
 * ```
 */
export async function readManifest(store: ObjectStore, name: string): Promise<Manifest | null> {
  const object = await store.get(manifestKey(name));
  if (!object) return null;
  const text = await new Response(object.body).text();
  return JSON.parse(text) as Manifest;
}
