import { manifestKey } from "../split/object-keys.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { type Manifest, parseManifest } from "./manifest.ts";

/**
 * Reads and parses the manifest of `name`, or resolves `null` when the file does not exist (no manifest:
 * an upload that never completed does not count).
 *
 * @example
 * ```ts
 * import type { ObjectStore } from "../store/object-store.ts";
 * declare const store: ObjectStore;
 * const manifest = await readManifest(store, "primes");
 * if (manifest) console.log(manifest.totals.numbers);
 * ```
 */
export async function readManifest(store: ObjectStore, name: string): Promise<Manifest | null> {
  return (await readManifestVersion(store, name))?.manifest ?? null;
}

/** A manifest together with the etag of the object it was read from. */
export interface ManifestVersion {
  /** The parsed manifest. */
  manifest: Manifest;
  /** The manifest object's etag, for a conditional replacement. */
  etag: string;
}

/**
 * Reads the manifest of `name` with its etag, or resolves `null` when the file does not exist.
 *
 * @throws {RecordFormatError} when the stored manifest is not one this version reads (see `parseManifest`).
 *
 * @example
 * ```ts
 * import { manifestKey } from "../split/object-keys.ts";
 * import type { ObjectStore } from "../store/object-store.ts";
 * declare const store: ObjectStore;
 * declare const bytes: Uint8Array;
 * const current = await readManifestVersion(store, "primes");
 * await store.putIfMatch(manifestKey("primes"), bytes, current?.etag ?? null);
 * ```
 */
export async function readManifestVersion(store: ObjectStore, name: string): Promise<ManifestVersion | null> {
  const object = await store.get(manifestKey(name));
  if (!object) return null;
  const text = await new Response(object.body).text();
  return { manifest: parseManifest(text), etag: object.etag };
}
