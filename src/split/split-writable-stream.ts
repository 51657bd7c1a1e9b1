import { WritableStream } from "../streams/engine/writable-stream.ts";
import type { PartRecord, PartSplitter } from "./part-splitter.ts";
import { splitterEnding } from "./splitter-ending.ts";

/** What a {@linkcode SplitWritableStream} accepts: one number, or a batch of numbers. */
export type NumberChunk = number | ArrayLike<number>;

/**
 * Default queue size of a {@linkcode SplitWritableStream}, in chunks: 65,536 single numbers (about 0.5 MB)
 * reach the splitter in one `writev` batch.
 */
export const DEFAULT_SPLIT_HIGH_WATER_MARK = 65_536;

/**
 * A drainpipe `WritableStream` that writes every number it receives into a {@linkcode PartSplitter}: the
 * end of a `source → LineToNumber → split` pipeline. Chunks may be single numbers (the per-number contract)
 * or batches (typed arrays or arrays). Its sink implements drainpipe's `writev`, so a producer emitting one
 * number per chunk still reaches the splitter in batches: every run of queued numbers is encoded in one
 * call. Closing stores the last part and resolves {@linkcode parts}; aborting aborts the splitter.
 *
 * The queue holds up to `highWaterMark` chunks (default {@linkcode DEFAULT_SPLIT_HIGH_WATER_MARK}) before
 * signalling backpressure; the queue counts chunks, so a producer of large batches should pass a small
 * value (a few batches) to keep memory bounded.
 *
 * @example
 * ```ts
 * declare const body: ReadableStream<Uint8Array>;
 * const store = new MemoryStore();
 * const splitter = new PartSplitter({ store, name: "primes", uploadId: newUploadId(), maxPartBytes: 1 << 20 });
 * const sink = new SplitWritableStream(splitter);
 * await body.pipeThrough(new LineToNumberStream()).pipeTo(sink);
 * const parts = await sink.parts;
 * ```
 */
export class SplitWritableStream<T extends NumberChunk = NumberChunk> extends WritableStream<T> {
  /** The stored parts, once the stream has closed. */
  readonly parts: Promise<PartRecord[]>;

  /** Wraps `splitter`; the stream owns it from now on. */
  constructor(splitter: PartSplitter, highWaterMark = DEFAULT_SPLIT_HIGH_WATER_MARK) {
    const ending = splitterEnding(splitter);
    const runs = new NumberRuns();
    super(
      {
        write(chunk) {
          return writeChunks(splitter, [chunk], 0, runs);
        },
        writev(chunks) {
          return writeChunks(splitter, chunks as NumberChunk[], 0, runs);
        },
        close: ending.close,
        abort: ending.abort,
      },
      { highWaterMark },
    );
    this.parts = ending.parts;
  }
}

/**
 * Where runs of single numbers are gathered before they go to the splitter: one `Float64Array`, reused from batch
 * to batch (the stream writes one batch at a time, and the splitter is done with it when its write settles), so that
 * the splitter's encoder sees one kind of array whether the numbers came one per chunk or in typed batches.
 */
class NumberRuns {
  #values = new Float64Array(0);

  /** Copies the numbers of `chunks` from `from` on, up to the first chunk that is not a number, and returns them. */
  gather(chunks: readonly NumberChunk[], from: number): Float64Array {
    const length = chunks.length;
    if (this.#values.length < length - from)
      this.#values = new Float64Array(Math.max(length - from, this.#values.length * 2));
    const values = this.#values;
    return values.subarray(0, copyNumbers(chunks, from, values) - from);
  }
}

/**
 * Copies the numbers of `chunks` from `from` on into `values`, up to the first chunk that is not a number, and returns
 * that chunk's index. A function of its own so that nothing but the return follows its loop: V8 may compile the loop
 * while a call runs (on-stack replacement), and a property access after it, lacking type feedback, would deoptimize
 * that code at the end of every call that enters it.
 */
function copyNumbers(chunks: readonly NumberChunk[], from: number, values: Float64Array): number {
  const length = chunks.length;
  let end = from;
  for (; end < length; end++) {
    const chunk = chunks[end];
    if (typeof chunk !== "number") break;
    values[end - from] = chunk;
  }
  return end;
}

/** Writes `chunks[from..]` into `splitter`, each run of single numbers in one call; waits where it asks. */
function writeChunks(
  splitter: PartSplitter,
  chunks: NumberChunk[],
  from: number,
  runs: NumberRuns,
): Promise<void> | undefined {
  let i = from;
  while (i < chunks.length) {
    const chunk = chunks[i]!;
    let wait: Promise<void> | undefined;
    if (typeof chunk === "number") {
      const run = runs.gather(chunks, i);
      wait = splitter.write(run);
      i += run.length;
    } else {
      wait = splitter.write(chunk);
      i += 1;
    }
    if (wait) return wait.then(() => writeChunks(splitter, chunks, i, runs));
  }
  return undefined;
}
