/**
 * What drainpipe's `ReadableStream.prototype[Symbol.for("Stream.toAsyncStreamable")]()` returns: the stream as an
 * async iterable of `Uint8Array[]` batches, one draining read (`readMany`) per step.
 * @module
 */

import { batchBytes } from "./chunk-bytes.ts";
import type { ReadableStream } from "./readable-stream.ts";
import type { ReadableStreamDefaultReader } from "./readable-stream-default-reader.ts";

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * Iterates one locked stream by batches. Each `next()` is one `readMany`: the batch holds every chunk the stream
 * had without waiting (at least one), as bytes (see {@link batchBytes}). A chunk that is not bytes or a string
 * rejects that step with a `TypeError` and cancels the stream with it. The end of the stream, or its error, ends the
 * iteration and releases the lock; `return()` before the end cancels the stream, as `values()` does.
 */
class BatchIterator implements AsyncIterableIterator<Uint8Array[], undefined> {
  private reader: ReadableStreamDefaultReader<unknown> | undefined;

  constructor(reader: ReadableStreamDefaultReader<unknown>) {
    this.reader = reader;
  }

  next(): Promise<IteratorResult<Uint8Array[], undefined>> {
    const reader = this.reader;
    if (reader === undefined) return Promise.resolve(DONE);
    return reader.readMany().then(
      ({ chunks, done }) => {
        if (done) this.finish();
        if (chunks.length === 0) return DONE;
        try {
          return { value: batchBytes(chunks), done: false };
        } catch (error) {
          this.reader = undefined;
          if (!done) reader.cancel(error).catch(() => undefined);
          reader.releaseLock();
          throw error;
        }
      },
      (error: unknown) => {
        this.finish();
        throw error;
      },
    );
  }

  return(value?: unknown): Promise<IteratorResult<Uint8Array[], undefined>> {
    const reader = this.reader;
    if (reader === undefined) return Promise.resolve(DONE);
    this.reader = undefined;
    const cancelled = reader.cancel(value);
    reader.releaseLock();
    return cancelled.then(() => DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): void {
    this.reader?.releaseLock();
    this.reader = undefined;
  }
}

/**
 * `stream` as an async iterable of `Uint8Array[]` batches; locks it at once (a `TypeError` when it is locked).
 * @example
 * ```ts
 * const stream = new ReadableStream<string | Uint8Array>({
 *   start(controller) {
 *     controller.enqueue("a");
 *     controller.enqueue(new Uint8Array([2, 3]));
 *     controller.close();
 *   },
 * });
 * const batches: Uint8Array[][] = [];
 * for await (const batch of batchIterator(stream)) batches.push(batch);
 * batches; // [[new Uint8Array([0x61]), new Uint8Array([2, 3])]]
 * ```
 */
export function batchIterator<R>(stream: ReadableStream<R>): AsyncIterableIterator<Uint8Array[], undefined> {
  return new BatchIterator(stream.getReader() as ReadableStreamDefaultReader<unknown>);
}
