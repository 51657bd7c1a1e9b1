/**
 * The repair tool after any crash: every object in the bucket that no live version, upload in flight or read
 * refers to is removed. Objects under a valid file name are swept by that name's coordinator (which knows what
 * is live and ends expired leases first); anything else in the bucket is not drainpipe's layout and goes.
 *
 * @module
 */
import { assertValidName, InvalidNameError } from "../files/file-name.ts";
import { deleteAll, listPages } from "../store/list-all.ts";
import type { ObjectStore } from "../store/object-store.ts";
import type { SweepResult } from "./api-types.ts";

/**
 * Sweeps the whole bucket behind `store`, asking `sweepName` to sweep each file name (it resolves with the
 * objects it removed).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/memory-store.ts";
 * const store = new MemoryStore();
 * await store.put("stray.txt", new Uint8Array([1]));
 * await sweepBucket(store, async () => 0); // { names: 0, removed: 1 }
 * ```
 */
export async function sweepBucket(
  store: ObjectStore,
  sweepName: (name: string) => Promise<number>,
): Promise<SweepResult> {
  let names = 0;
  let removed = 0;
  for await (const page of listPages(store, "", { delimiter: "/" })) {
    const loose = page.objects.map((object) => object.key);
    if (loose.length > 0) {
      await store.delete(loose);
      removed += loose.length;
    }
    for (const prefix of page.prefixes) {
      const name = prefix.slice(0, -1);
      if (isValidName(name)) {
        names += 1;
        removed += await sweepName(name);
      } else {
        removed += await deleteAll(store, prefix);
      }
    }
  }
  return { names, removed };
}

function isValidName(name: string): boolean {
  try {
    assertValidName(name);
    return true;
  } catch (error) {
    if (error instanceof InvalidNameError) return false;
    throw error;
  }
}
