/**
 * Where a byte range of a file's content lies in its parts: the content is the parts' bytes one after another, so
 * a range maps to a run of consecutive parts, the first and last of them perhaps only in part.
 *
 * @module
 */
import type { PartRecord } from "../split/part-splitter.ts";

/** Bytes `offset` … `offset + length − 1` of one part. */
export interface PartSlice {
  /** The part. */
  part: PartRecord;
  /** The first byte of the slice within the part, 0-based. */
  offset: number;
  /** How many bytes (all of the part's for a whole part). */
  length: number;
}

/**
 * Every byte of each of `parts`, as slices.
 *
 * @example
 * ```ts
 * import type { Manifest } from "./manifest.ts";
 * declare const manifest: Manifest;
 * const slices = wholeParts(manifest.parts);
 * ```
 */
export function wholeParts(parts: readonly PartRecord[]): PartSlice[] {
  return parts.map((part) => ({ part, offset: 0, length: part.bytes }));
}

/**
 * The slices of `parts` that hold bytes `offset` … `offset + length − 1` of the content they make, in order: only
 * the parts the range covers, cut to it.
 *
 * @throws {RangeError} when the range is empty or does not lie within the content.
 * @example
 * ```ts
 * const part = { key: "a", bytes: 10, numbers: 5, first: 0, last: 4, etag: "e" };
 * const parts = [{ ...part, index: 0 }, { ...part, index: 1 }];
 * sliceParts(parts, 8, 4).map(({ part, offset, length }) => [part.index, offset, length]); // [[0, 8, 2], [1, 0, 2]]
 * ```
 */
export function sliceParts(parts: readonly PartRecord[], offset: number, length: number): PartSlice[] {
  const end = offset + length;
  const total = parts.reduce((sum, part) => sum + part.bytes, 0);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 1 || end > total) {
    throw new RangeError(
      `Cannot slice bytes ${offset} to ${end - 1} of content of ${total} bytes: expected a non-empty range within it`,
    );
  }
  const slices: PartSlice[] = [];
  let start = 0;
  for (const part of parts) {
    const stop = start + part.bytes;
    if (stop > offset && start < end) {
      const from = Math.max(offset, start);
      slices.push({ part, offset: from - start, length: Math.min(end, stop) - from });
    }
    if (stop >= end) break;
    start = stop;
  }
  return slices;
}
