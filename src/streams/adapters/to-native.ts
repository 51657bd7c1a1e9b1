/**
 * Hands a drainpipe byte stream to the platform: as a native `ReadableStream` (a `Response` body), or with a
 * known length as the readable side of workerd's `FixedLengthStream`, which R2 `put()` and `uploadPart()` accept.
 * @module
 */

import "../platform-types.ts";
import { hostReadableStreamClass } from "../engine/host-streams.ts";
import type { ReadableStream as DrainpipeReadableStream } from "../engine/readable-stream.ts";

interface FixedLengthStreamLike {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

type FixedLengthStreamConstructor = new (expectedLength: number) => FixedLengthStreamLike;

/**
 * A native `ReadableStream` that reads `stream` on demand, one chunk per native read; `stream` is locked at
 * once. Native means the platform's own class as `globalThis` had it when drainpipe loaded, so it stays native
 * where drainpipe's classes were installed as the globals since. Cancelling the native stream cancels `stream`
 * with the same reason; an error of `stream` errors the native stream with the same error.
 *
 * @example
 * ```ts
 * const text = ReadableStream.from<Uint8Array>([new TextEncoder().encode("1\n2\n3\n")]);
 * const response = new Response(toNativeStream(text), { headers: { "content-type": "text/plain" } });
 * ```
 */
export function toNativeStream(stream: DrainpipeReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return nativeStreamOf(stream, undefined);
}

/**
 * A native stream of exactly `length` bytes read from `stream`. Where the platform has `FixedLengthStream`
 * (workerd) it is that stream's readable side, whose length R2 `put()`/`uploadPart()` and `Response` see;
 * elsewhere a plain native stream. Either way the result errors with a `RangeError` (and `stream` is cancelled)
 * when `stream` turns out longer or shorter than `length`.
 *
 * @example
 * ```ts
 * declare const part: ReadableStream<Uint8Array>;
 * // An R2 bucket, as far as this example needs it:
 * declare const bucket: { put(key: string, body: globalThis.ReadableStream<Uint8Array>): Promise<unknown> };
 * await bucket.put("parts/0001", toFixedLengthNativeStream(part, 10 * 1024 * 1024));
 * ```
 */
export function toFixedLengthNativeStream(
  stream: DrainpipeReadableStream<Uint8Array>,
  length: number,
): ReadableStream<Uint8Array> {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(
      `Cannot create a fixed-length stream: length must be a non-negative integer, current value is ${length}`,
    );
  }
  const FixedLengthStream = (globalThis as { FixedLengthStream?: FixedLengthStreamConstructor }).FixedLengthStream;
  const checked = nativeStreamOf(stream, length);
  if (FixedLengthStream === undefined) return checked;
  const fixed = new FixedLengthStream(length);
  // Failures reach the consumer through `fixed.readable`; the pipe's own promise only needs observing.
  checked.pipeTo(fixed.writable).catch(() => undefined);
  return fixed.readable;
}

function nativeStreamOf(
  stream: DrainpipeReadableStream<Uint8Array>,
  length: number | undefined,
): ReadableStream<Uint8Array> {
  const HostReadableStream = hostReadableStreamClass();
  const reader = stream.getReader();
  let total = 0;
  return new HostReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          if (length !== undefined && total !== length) {
            throw new RangeError(`Cannot end the stream: it has ${total} bytes, its declared length is ${length}`);
          }
          controller.close();
          return;
        }
        total += value.byteLength;
        if (length !== undefined && total > length) {
          const error = new RangeError(
            `Cannot pass more bytes: the stream is longer than its declared length of ${length}`,
          );
          await reader.cancel(error);
          throw error;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
