import { manifestKey, uploadIdOfKey } from "../split/object-keys.ts";
import { listAll } from "../store/list-all.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";

/**
 * Deletes the objects under the file's name that no version, upload in flight, session or read refers to
 * (leftovers of dead uploads, strays); resolves how many went.
 *
 * @example
 * ```ts
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * declare const file: CoordinatedFile;
 * await removeRemnants(file); // e.g. 3
 * ```
 */
export async function removeRemnants(file: CoordinatedFile): Promise<number> {
  const { ledger, store, name } = file;
  const live = ledger.liveUploadIds();
  const keepManifest = ledger.current() !== null;
  const remnants: string[] = [];
  for await (const object of listAll(store, `${name}/`)) {
    if (object.key === manifestKey(name) ? keepManifest : live.has(uploadIdOfKey(name, object.key) ?? "")) continue;
    remnants.push(object.key);
  }
  if (remnants.length > 0) await store.delete(remnants);
  return remnants.length;
}
