import { ReadableStream } from "../streams/engine/readable-stream.ts";
import { type PrimeBatchOptions, primeBatches } from "./prime-batches.ts";

/**
 * A stream of the first `count` primes in `Float64Array` batches (see {@linkcode primeBatches}). A batch is
 * generated only when the reader pulls, so memory stays bounded however large `count` is.
 *
 * @throws {RangeError} when `count` or `options.batchSize` is out of range (see {@linkcode primeBatches}).
 *
 * @example
 * ```ts
 * let total = 0;
 * for await (const batch of primeBatchStream(1_000_000)) total += batch.length;
 * total; // 1_000_000
 * ```
 */
export function primeBatchStream(count: number, options?: PrimeBatchOptions): ReadableStream<Float64Array> {
  const batches = primeBatches(count, options);
  return new ReadableStream<Float64Array>(
    {
      pull(controller) {
        const batch = batches.next();
        if (batch.done) controller.close();
        else controller.enqueue(batch.value);
      },
      cancel() {
        batches.return(undefined);
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
