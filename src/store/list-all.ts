import type { ListOptions, ObjectListing, ObjectStore, StoredObject } from "./object-store.ts";

/**
 * Every page of the listing of `prefix`, following the listing's cursor.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./memory-store.ts";
 * const store = new MemoryStore();
 * for await (const page of listPages(store, "", { delimiter: "/" })) console.log(page.prefixes);
 * ```
 */
export async function* listPages(
  store: ObjectStore,
  prefix: string,
  options: Omit<ListOptions, "cursor"> = {},
): AsyncGenerator<ObjectListing> {
  let cursor: string | undefined;
  do {
    const page = await store.list(prefix, cursor === undefined ? options : { ...options, cursor });
    yield page;
    cursor = page.cursor;
  } while (cursor !== undefined);
}

/**
 * Every object under `prefix`, following the listing's cursor across pages.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./memory-store.ts";
 * const store = new MemoryStore();
 * for await (const object of listAll(store, "primes/uploads/")) console.log(object.key);
 * ```
 */
export async function* listAll(store: ObjectStore, prefix: string): AsyncGenerator<StoredObject> {
  for await (const page of listPages(store, prefix)) yield* page.objects;
}

/**
 * The distinct key prefixes under `prefix` up to and including `delimiter` (say, every file name followed
 * by `/`), following the listing's cursor across pages.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./memory-store.ts";
 * const store = new MemoryStore();
 * await store.put("primes/manifest.json", new TextEncoder().encode("{}"));
 * const names: string[] = [];
 * for await (const name of listPrefixes(store, "", "/")) names.push(name);
 * names; // ["primes/"]
 * ```
 */
export async function* listPrefixes(store: ObjectStore, prefix: string, delimiter: string): AsyncGenerator<string> {
  for await (const page of listPages(store, prefix, { delimiter })) yield* page.prefixes;
}

/**
 * Deletes every object under `prefix` and returns how many there were.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put("primes/uploads/u1/part-00000000", new TextEncoder().encode("2\n3\n"));
 * await deleteAll(store, "primes/uploads/u1/"); // 1
 * ```
 */
export async function deleteAll(store: ObjectStore, prefix: string): Promise<number> {
  const keys: string[] = [];
  for await (const object of listAll(store, prefix)) keys.push(object.key);
  await store.delete(keys);
  return keys.length;
}
