import { ReadableStream } from "../streams/engine/readable-stream.ts";
import { primeBatches } from "./prime-batches.ts";

/** Primes the stream keeps queued ahead of its reader. */
const HIGH_WATER_MARK = 4096;

/**
 * A stream of the first `count` primes, one prime per chunk. Primes are generated as the reader pulls, keeping
 * at most about 4,096 queued, so memory stays bounded however large `count` is.
 *
 * @throws {RangeError} when `count` is not a safe integer in [0, {@linkcode MAX_PRIME_COUNT}].
 *
 * @example
 * ```ts
 * const primes: number[] = [];
 * for await (const prime of primeStream(5)) primes.push(prime);
 * primes; // [2, 3, 5, 7, 11]
 * ```
 */
export function primeStream(count: number): ReadableStream<number> {
  const batches = primeBatches(count, { batchSize: HIGH_WATER_MARK });
  return new ReadableStream<number>(
    {
      pull(controller) {
        const batch = batches.next();
        if (batch.done) {
          controller.close();
          return;
        }
        for (let i = 0; i < batch.value.length; i++) controller.enqueue(batch.value[i]!);
      },
      cancel() {
        batches.return(undefined);
      },
    },
    new CountQueuingStrategy({ highWaterMark: HIGH_WATER_MARK }),
  );
}
