/**
 * Reads a whole byte stream into one buffer: for targets that need the length before the bytes, such as an
 * R2 `uploadPart()` of a part whose length is not known in advance.
 * @module
 */

import type { ReadableStream } from "../engine/readable-stream.ts";

/**
 * Reads `stream` to its end into one buffer of `maxBytes` bytes, allocated up front, and returns the filled
 * part. Memory cost: `maxBytes` for the whole call plus the chunk being copied, whatever the stream's actual
 * length, so pass the largest size you accept (for R2 parts, the part size), not a generous guess. A stream
 * longer than `maxBytes` is cancelled and the call rejects with a `RangeError`; an error of the stream rejects
 * the call with that error.
 *
 * @example
 * ```ts
 * declare const part: ReadableStream<Uint8Array>;
 * const bytes = await collectBytes(part, 10 * 1024 * 1024); // rejects with a RangeError beyond 10 MiB
 * console.log(bytes.byteLength);
 * ```
 */
export async function collectBytes(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`Cannot collect bytes: maxBytes must be a non-negative integer, current value is ${maxBytes}`);
  }
  const reader = stream.getReader();
  const bytes = new Uint8Array(maxBytes);
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.byteLength > maxBytes - total) {
      const error = new RangeError(`Cannot collect bytes: the stream is longer than maxBytes (${maxBytes})`);
      await reader.cancel(error);
      throw error;
    }
    bytes.set(value, total);
    total += value.byteLength;
  }
  reader.releaseLock();
  return bytes.subarray(0, total);
}
