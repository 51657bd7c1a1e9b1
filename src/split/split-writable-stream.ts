import { WritableStream } from "../streams/standard/writable-stream.ts";
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
    super(
      {
        write(chunk) {
          return splitter.write(typeof chunk === "number" ? [chunk] : chunk);
        },
        writev(chunks) {
          return writeChunks(splitter, chunks as NumberChunk[], 0);
        },
        close: ending.close,
        abort: ending.abort,
      },
      { highWaterMark },
    );
    this.parts = ending.parts;
  }
}

/** Writes `chunks[from..]` in order, each run of single numbers as one batch; waits where the splitter asks. */
function writeChunks(splitter: PartSplitter, chunks: NumberChunk[], from: number): Promise<void> | undefined {
  let i = from;
  while (i < chunks.length) {
    const chunk = chunks[i]!;
    let wait: Promise<void> | undefined;
    if (typeof chunk === "number") {
      let end = i + 1;
      while (end < chunks.length && typeof chunks[end] === "number") end += 1;
      const run = i === 0 && end === chunks.length ? chunks : chunks.slice(i, end);
      wait = splitter.write(run as number[]);
      i = end;
    } else {
      wait = splitter.write(chunk);
      i += 1;
    }
    if (wait) return wait.then(() => writeChunks(splitter, chunks, i));
  }
  return undefined;
}
