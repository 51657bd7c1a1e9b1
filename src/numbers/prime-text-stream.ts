import "../streams/platform-types.ts";
import { encodeNumbersInto } from "./number-encoder.ts";
import { primeBatches } from "./prime-batches.ts";

/** The default size of the buffers {@linkcode primeTextStream} fills: 1 MiB. */
export const DEFAULT_PRIME_TEXT_CHUNK_BYTES = 1024 * 1024;

/** The smallest `chunkBytes` accepted: room for the longest prime line (12 bytes) with some to spare. */
const MIN_CHUNK_BYTES = 16;

/** Options of {@linkcode primeTextStream}. */
export interface PrimeTextStreamOptions {
  /** Size of each chunk's buffer, at least 16 bytes; default {@linkcode DEFAULT_PRIME_TEXT_CHUNK_BYTES}. */
  chunkBytes?: number;
}

/**
 * The first `count` primes as text, one decimal line per prime, each ending in `\n`. Each chunk is a view of a
 * fresh `chunkBytes`-long buffer holding as many whole lines as fit (lines never span chunks). Chunks are
 * encoded only when the reader pulls, so memory stays bounded however large `count` is.
 *
 * @throws {RangeError} when `count` is out of range (see {@linkcode primeBatches}) or `chunkBytes` is not an
 * integer of at least 16.
 *
 * @example
 * ```ts
 * await new Response(primeTextStream(4)).text(); // "2\n3\n5\n7\n"
 * ```
 */
export function primeTextStream(count: number, options: PrimeTextStreamOptions = {}): ReadableStream<Uint8Array> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_PRIME_TEXT_CHUNK_BYTES;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < MIN_CHUNK_BYTES) {
    throw new RangeError(
      `Cannot stream primes as text: chunkBytes must be an integer of at least ${MIN_CHUNK_BYTES}, got ${chunkBytes}`,
    );
  }
  const batches = primeBatches(count);
  let batch: Float64Array = new Float64Array(0);
  let read = 0;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = new Uint8Array(chunkBytes);
        let written = 0;
        while (!done) {
          if (read === batch.length) {
            const next = batches.next();
            if (next.done) {
              done = true;
              break;
            }
            batch = next.value;
            read = 0;
          }
          const step = encodeNumbersInto(batch, read, batch.length, chunk, written);
          read += step.read;
          written += step.written;
          if (read < batch.length) break;
        }
        if (written > 0) controller.enqueue(chunk.subarray(0, written));
        if (done) controller.close();
      },
      cancel() {
        batches.return(undefined);
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
