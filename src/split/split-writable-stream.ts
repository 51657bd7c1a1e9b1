import type { PartRecord, PartSplitter } from "./part-splitter.ts";

/** What a {@linkcode SplitWritableStream} accepts: one number, or a batch of numbers. */
export type NumberChunk = number | ArrayLike<number>;

/**
 * A `WritableStream` that writes every number it receives into a {@linkcode PartSplitter}: the end of a
 * `source → LineToNumber → split` pipeline. Chunks may be single numbers or batches (typed arrays or
 * arrays); closing stores the last part and resolves {@linkcode parts}; aborting aborts the splitter.
 *
 * @example
 * ```ts
 * const sink = new SplitWritableStream(new PartSplitter({ store, name, uploadId, maxPartBytes }));
 * await body.pipeThrough(new LineToNumberBatchStream()).pipeTo(sink);
 * const parts = await sink.parts;
 * ```
 */
export class SplitWritableStream extends WritableStream<NumberChunk> {
  /** The stored parts, once the stream has closed. */
  readonly parts: Promise<PartRecord[]>;

  /** Wraps `splitter`; the stream owns it from now on. */
  constructor(splitter: PartSplitter) {
    const one = new Float64Array(1);
    let settle!: { resolve: (parts: PartRecord[]) => void; reject: (reason: unknown) => void };
    const parts = new Promise<PartRecord[]>((resolve, reject) => {
      settle = { resolve, reject };
    });
    parts.catch(() => undefined);
    super({
      write(chunk) {
        if (typeof chunk === "number") {
          one[0] = chunk;
          return splitter.write(one);
        }
        return splitter.write(chunk);
      },
      async close() {
        try {
          settle.resolve(await splitter.close());
        } catch (error) {
          settle.reject(error);
          throw error;
        }
      },
      async abort(reason) {
        settle.reject(reason);
        await splitter.abort();
      },
    });
    this.parts = parts;
  }
}
