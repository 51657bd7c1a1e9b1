import type { ObjectStore, StoredObject } from "./object-store.ts";

/**
 * Every object under `prefix`, following the listing's cursor across pages.
 *
 * @example
 * ```ts
 * for await (const object of listAll(store, "primes/uploads/")) console.log(object.key);
 * ```
 */
export async function* listAll(store: ObjectStore, prefix: string): AsyncGenerator<StoredObject> {
  let cursor: string | undefined;
  do {
    const page = await store.list(prefix, cursor === undefined ? {} : { cursor });
    yield* page.objects;
    cursor = page.cursor;
  } while (cursor !== undefined);
}

/**
 * Deletes every object under `prefix` and returns how many there were.
 *
 * @example
 * ```ts
 * await deleteAll(store, uploadPrefix("primes", uploadId)); // e.g. 3
 * ```
 */
export async function deleteAll(store: ObjectStore, prefix: string): Promise<number> {
  const keys: string[] = [];
  for await (const object of listAll(store, prefix)) keys.push(object.key);
  await store.delete(keys);
  return keys.length;
}
