/**
 * The segments an upload session will send, cut before the first byte goes: a cut the worker cannot take
 * (more segments than a session holds) is refused at once, naming the segment sizes that work.
 *
 * @module
 */
import { UsageError } from "./cli-error.ts";
import { type FileRange, fileSegmentRanges } from "./file-range.ts";
import { formatCount } from "./format.ts";

/**
 * Most segments in one session: the worker's `MAX_SEGMENTS` (`src/worker/session-routes.ts`, which the Node
 * side cannot import: it is typed for Cloudflare Workers), segment indices 0 … 9,999.
 */
export const MAX_SEGMENTS = 10_000;

/**
 * The smallest segment size that keeps a file of `size` bytes within {@linkcode MAX_SEGMENTS} segments, whatever
 * its lines: every segment but the last holds at least that many bytes.
 *
 * @example
 * ```ts
 * smallestSegmentBytes(710_000); // 71
 * ```
 */
export function smallestSegmentBytes(size: number): number {
  return Math.max(1, Math.ceil(size / MAX_SEGMENTS));
}

/**
 * Cuts the file into segments of about `segmentBytes` (see {@linkcode fileSegmentRanges}) and checks that a session
 * can hold them.
 *
 * @throws {UsageError} (code `too-many-segments`) when the file needs more than {@linkcode MAX_SEGMENTS}
 * segments; the message names the smallest size that works.
 *
 * @example
 * ```ts
 * declare const file: { path: string; size: number };
 * const ranges = await sessionSegments(file, 95_000_000);
 * ```
 */
export async function sessionSegments(
  file: { path: string; size: number },
  segmentBytes: number,
): Promise<FileRange[]> {
  const ranges = await fileSegmentRanges(file.path, file.size, segmentBytes, MAX_SEGMENTS + 1);
  if (ranges.length <= MAX_SEGMENTS) return ranges;
  throw tooManySegmentsError(file.path, segmentBytes, smallestSegmentBytes(file.size));
}

/**
 * The error for an input that needs more than {@linkcode MAX_SEGMENTS} segments of `segmentBytes`: names the
 * smallest size that works when it is known (`minSegmentBytes`; unknown for a stream still being read).
 *
 * @example
 * ```ts
 * tooManySegmentsError("primes.txt", 71, 100).code; // "too-many-segments"
 * ```
 */
export function tooManySegmentsError(path: string, segmentBytes: number, minSegmentBytes?: number): UsageError {
  const advice =
    minSegmentBytes === undefined
      ? "use a larger --segment-bytes"
      : `use --segment-bytes ${formatCount(minSegmentBytes)} or more`;
  return new UsageError(
    `Cannot upload "${path}" in segments of ${formatCount(segmentBytes)} bytes: ` +
      `that makes more than ${formatCount(MAX_SEGMENTS)} segments, the most a session holds; ` +
      `${advice} (a size over the worker's limit is cut to it)`,
    { code: "too-many-segments", details: { segmentBytes, maxSegments: MAX_SEGMENTS, minSegmentBytes } },
  );
}
