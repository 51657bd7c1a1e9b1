/**
 * Byte ranges of a local file: streamed, hashed, cut at line breaks and counted, each reading only the range
 * (or a small window), never the whole file into memory.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { READ_CHUNK_BYTES } from "./local-file.ts";

/** `[start, end)` of a file: one segment of an upload session. */
export interface FileRange {
  /** The segment's index. */
  index: number;
  /** Its first byte. */
  start: number;
  /** One past its last byte. */
  end: number;
}

/** Reads `[start, end)` of `path` in chunks of {@linkcode READ_CHUNK_BYTES}, calling `chunk` for each in order. */
async function eachChunk(path: string, start: number, end: number, chunk: (bytes: Uint8Array) => void): Promise<void> {
  const handle = await open(path, "r");
  try {
    for (let position = start; position < end; ) {
      const buffer = new Uint8Array(Math.min(READ_CHUNK_BYTES, end - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error(`Cannot read "${path}" at byte ${position}: the file got shorter`);
      chunk(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Cuts a file of `size` bytes into segments of about `segmentBytes`: each boundary is the first line break at or
 * after a multiple of `segmentBytes` (a segment ends with its line break), found by reading small windows. Stops
 * after `maxRanges` ranges when given (the file's rest is then left uncut).
 *
 * @example
 * ```ts
 * declare const path: string; // a file of 1 GB, say "primes.txt"
 * const ranges = await fileSegmentRanges(path, 1_000_000_000, 95_000_000);
 * ranges.length; // 11
 * ```
 */
export async function fileSegmentRanges(
  path: string,
  size: number,
  segmentBytes: number,
  maxRanges = Number.POSITIVE_INFINITY,
): Promise<FileRange[]> {
  const ranges: FileRange[] = [];
  const handle = await open(path, "r");
  try {
    let start = 0;
    while (start < size && ranges.length < maxRanges) {
      let cut = Math.max(start + 1, (Math.floor(start / segmentBytes) + 1) * segmentBytes);
      let end = size;
      const window = new Uint8Array(READ_CHUNK_BYTES);
      while (cut < size) {
        const { bytesRead } = await handle.read(window, 0, window.length, cut - 1);
        const newline = window.subarray(0, bytesRead).indexOf(10);
        if (newline >= 0) {
          end = cut + newline;
          break;
        }
        if (bytesRead === 0) break;
        cut += bytesRead;
      }
      ranges.push({ index: ranges.length, start, end });
      start = end;
    }
  } finally {
    await handle.close();
  }
  return ranges;
}

/**
 * `[start, end)` of `path` as a stream, read one chunk per pull.
 *
 * @example
 * ```ts
 * declare const path: string; // a file of numbers, say "primes.txt"
 * const body = readRange(path, 0, 95_000_012);
 * ```
 */
export function readRange(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let position = start;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        handle ??= await open(path, "r");
        if (position >= end) {
          await handle.close();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(Math.min(READ_CHUNK_BYTES, end - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) throw new Error(`Cannot read "${path}" at byte ${position}: the file got shorter`);
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      },
      async cancel() {
        await handle?.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The SHA-256 (base64) of `[start, end)` of `path`, as `Content-Digest` carries it; `onBytes` is told how many bytes
 * of the range were hashed so far after each chunk.
 *
 * @example
 * ```ts
 * declare const path: string; // a file of numbers, say "primes.txt"
 * const digest = await digestOfRange(path, 0, 1024);
 * ```
 */
export async function digestOfRange(
  path: string,
  start: number,
  end: number,
  onBytes?: (bytes: number) => void,
): Promise<string> {
  const hash = createHash("sha256");
  let hashed = 0;
  await eachChunk(path, start, end, (bytes) => {
    hash.update(bytes);
    hashed += bytes.byteLength;
    onBytes?.(hashed);
  });
  return hash.digest("base64");
}

/**
 * How many line breaks `path` holds before byte `end`: the line number of byte `end`, less one.
 *
 * @example
 * ```ts
 * declare const path: string; // a file of numbers, say "primes.txt"
 * const linesBefore = await countLineBreaks(path, 95_000_012);
 * ```
 */
export async function countLineBreaks(path: string, end: number): Promise<number> {
  let count = 0;
  await eachChunk(path, 0, end, (bytes) => {
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  });
  return count;
}
