/**
 * The repair tool after any crash: every object in the bucket that no live version, upload in flight or read
 * refers to is removed. Objects under a valid file name are swept by that name's coordinator (which knows what
 * is live and ends expired leases first), and so are those of a partial tus upload, by its own coordinator
 * (`_tus.<token>/`, see `tus-id.ts`); anything else in the bucket is not drainpipe's layout and goes.
 *
 * @module
 */
import { assertValidName, InvalidNameError } from "../files/file-name.ts";
import type { SweepResult } from "../http-contract/bodies.ts";
import { deleteAll } from "../store/list-all.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { isPartialOwner } from "./tus-id.ts";

/** Options of {@linkcode sweepBucket}. */
export interface SweepOptions {
  /** Where to start: a previous step's `cursor`; the start of the bucket when absent. */
  cursor?: string | undefined;
  /** Most top-level entries (file names and loose objects) this step sweeps; all of them when absent. */
  limit?: number | undefined;
}

/**
 * Sweeps the bucket behind `store`, or the `limit` top-level entries after `cursor` (a bounded step, for a
 * request with a subrequest budget), asking `sweepName` to sweep each file name and partial upload's folder (it
 * resolves with the objects it removed).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/memory-store.ts";
 * const store = new MemoryStore();
 * await store.put("stray.txt", new Uint8Array([1]));
 * const result = await sweepBucket(store, async () => 0);
 * if (result.removed !== 1 || result.cursor !== null) throw new Error("not swept");
 * ```
 */
export async function sweepBucket(
  store: ObjectStore,
  sweepName: (name: string) => Promise<number>,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const { limit } = options;
  let cursor = options.cursor;
  let names = 0;
  let removed = 0;
  do {
    const page = await store.list("", {
      delimiter: "/",
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit === undefined ? {} : { limit }),
    });
    const loose = page.objects.map((object) => object.key);
    if (loose.length > 0) {
      await store.delete(loose);
      removed += loose.length;
    }
    for (const prefix of page.prefixes) {
      const name = prefix.slice(0, -1);
      if (isValidName(name) || isPartialOwner(name)) {
        names += 1;
        removed += await sweepName(name);
      } else {
        removed += await deleteAll(store, prefix);
      }
    }
    cursor = page.cursor;
  } while (cursor !== undefined && limit === undefined);
  return { names, removed, cursor: cursor ?? null };
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
