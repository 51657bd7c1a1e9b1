/**
 * Segments of an upload session cut from a stream of unknown size (standard input, a pipe) as it is read: each held
 * in memory until it is sent, since a stream cannot be read twice (for its digest, then for a retry).
 *
 * @module
 */
import { CliError } from "./cli-error.ts";
import { formatCount } from "./format.ts";

/** One segment cut from a stream: its bytes and where they start in the stream. */
export interface HeldSegment {
  /** The segment's index. */
  index: number;
  /** Its offset in the stream. */
  offset: number;
  /** Its bytes, ending with a line break unless it is the stream's last segment. */
  bytes: Uint8Array;
}

/** Room for the line that ends a segment past its multiple, allocated with each segment. */
const LINE_ROOM_BYTES = 64 * 1024;

/** Options of {@linkcode cutSegments}. */
export interface CutOptions {
  /** The size to cut at: each segment holds at least this many bytes, then the rest of the line it reached. */
  segmentBytes: number;
  /** The most bytes a segment may hold (the worker's segment limit): a segment that outgrows it is refused. */
  maxBytes: number;
  /** The stream's name in errors (`-` for standard input). */
  path: string;
}

/**
 * Cuts `chunks` into segments of about `segmentBytes` at the same boundaries `fileSegmentRanges` finds in a file of the
 * same bytes (the first line break at or after each multiple of `segmentBytes`; a segment ends with its line break),
 * so that a stream and a file of the same content make the same segments, with the same digests. Each segment is
 * yielded as soon as its line break arrives; the next one is not read until the consumer asks for it. A segment is
 * a buffer of its own, never reused.
 *
 * @throws {CliError} (code `segment-too-large`) when a segment would hold more than `maxBytes` (a line runs past
 * the worker's limit, and the worker would refuse the segment).
 *
 * @example
 * ```ts
 * declare const stdin: ReadableStream<Uint8Array>;
 * const segments = cutSegments(stdin, { segmentBytes: 95_000_000, maxBytes: 100_000_000, path: "-" });
 * for await (const segment of segments) {
 *   segment.bytes.byteLength; // about 95 MB, up to its line break
 * }
 * ```
 */
export async function* cutSegments(
  chunks: AsyncIterable<Uint8Array>,
  options: CutOptions,
): AsyncGenerator<HeldSegment> {
  const { segmentBytes, maxBytes, path } = options;
  if (!Number.isSafeInteger(segmentBytes) || segmentBytes < 1 || !(maxBytes >= segmentBytes)) {
    throw new RangeError(
      `Cannot cut segments of ${segmentBytes} bytes, at most ${maxBytes}: the size must be a positive integer ` +
        "no larger than the limit",
    );
  }
  const roomy = Math.min(segmentBytes + LINE_ROOM_BYTES, maxBytes);
  let index = 0;
  let offset = 0;
  let buffer = new Uint8Array(0);
  let held = 0;
  const append = (bytes: Uint8Array) => {
    const needed = held + bytes.byteLength;
    if (needed > maxBytes) {
      throw new CliError(
        `Cannot upload "${path}" in segments of ${formatCount(segmentBytes)} bytes: segment ${formatCount(index)} ` +
          `(from byte offset ${formatCount(offset)}) reaches the worker's segment limit of ${formatCount(maxBytes)} ` +
          "bytes with no line break to end at",
        { code: "segment-too-large", details: { segment: index, offset, maxBytes } },
      );
    }
    if (needed > buffer.byteLength) {
      // Doubling keeps the copies linear; a segment that fits its usual room gets no more than that.
      let size = Math.max(needed, 2 * buffer.byteLength, 1 << 16);
      if (needed <= roomy) size = Math.min(size, roomy);
      const wider = new Uint8Array(Math.min(size, maxBytes));
      wider.set(buffer.subarray(0, held));
      buffer = wider;
    }
    buffer.set(bytes, held);
    held = needed;
  };
  for await (const chunk of chunks) {
    let rest = chunk;
    while (rest.byteLength > 0) {
      // The segment ends at the first line break at or after the stream's next multiple of segmentBytes, less one.
      const nextMultiple = (Math.floor(offset / segmentBytes) + 1) * segmentBytes;
      const searchFrom = Math.max(0, nextMultiple - 1 - offset - held);
      const lineBreak = searchFrom < rest.byteLength ? rest.indexOf(10, searchFrom) : -1;
      if (lineBreak < 0) {
        append(rest);
        break;
      }
      append(rest.subarray(0, lineBreak + 1));
      rest = rest.subarray(lineBreak + 1);
      const bytes = buffer.subarray(0, held);
      buffer = new Uint8Array(0);
      held = 0;
      yield { index: index++, offset, bytes };
      offset += bytes.byteLength;
    }
  }
  if (held > 0) yield { index, offset, bytes: buffer.subarray(0, held) };
}
