/**
 * {@link toWriter}: a writer of the iterable-streams API over a web `WritableStream`.
 * @module
 */

import "../platform-types.ts";
import { batchBytes, chunkBytes } from "../engine/chunk-bytes.ts";
import { batchLimit, writeBatch } from "../engine/fast-paths/pipe-batches.ts";
import { drainableProtocol } from "../engine/iterable-protocols.ts";
import {
  AcquireWritableStreamDefaultWriter,
  type WritableStream as DrainpipeWritableStream,
  IsWritableStreamLocked,
  isWritableStream,
} from "../engine/writable-stream.ts";
import {
  type WritableStreamDefaultWriter,
  WritableStreamDefaultWriterGetDesiredSize,
} from "../engine/writable-stream-default-writer.ts";
import type { RunWriteRequest } from "../engine/write-request-queue.ts";
import { isCountOne } from "../standard/queuing-strategy.ts";
import type { Writer, WriterChunk, WriterOptions } from "./writer.ts";

/** The part of a web writer (drainpipe's or the platform's) this module uses. */
interface WebWriter {
  readonly desiredSize: number | null;
  readonly ready: Promise<unknown>;
  readonly closed: Promise<unknown>;
  write(chunk: Uint8Array): Promise<unknown>;
  close(): Promise<unknown>;
  abort(reason?: unknown): Promise<unknown>;
}

function ignore(): void {}

/**
 * The write request of every chunk a writer over a drainpipe stream queues: the outcome of a write reaches the
 * writer's caller through the stream's state (`ready`, `close()`), as with a web writer whose write promises
 * nobody awaits.
 */
const UNOBSERVED: RunWriteRequest = { resolve: ignore, reject: ignore, resolveMany: ignore, rejectMany: ignore };

const RESOLVED: Promise<void> = Promise.resolve();

/** `promise`, or a rejection with `signal`'s reason if it aborts first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

class StreamWriter implements Writer {
  private readonly writer: WebWriter;
  /** The same writer, when the stream is drainpipe's: batches then enter its queue as one operation. */
  private readonly own: WritableStreamDefaultWriter<Uint8Array> | undefined;
  private bytes = 0;
  private ending: Promise<number> | undefined;
  private ended = false;
  private failed = false;
  private failure: unknown;

  constructor(writer: WebWriter, own: WritableStreamDefaultWriter<Uint8Array> | undefined) {
    this.writer = writer;
    this.own = own;
  }

  get desiredSize(): number | null {
    return this.ending === undefined && !this.failed ? this.writer.desiredSize : null;
  }

  get canWrite(): boolean | null {
    const desiredSize = this.desiredSize;
    return desiredSize === null ? null : desiredSize > 0;
  }

  write(chunk: WriterChunk, options?: WriterOptions): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = chunkBytes(chunk);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.queue([bytes], options?.signal);
  }

  writev(chunks: readonly WriterChunk[], options?: WriterOptions): Promise<void> {
    let batch: Uint8Array[];
    try {
      batch = batchBytes(chunks);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.queue(batch, options?.signal);
  }

  writeSync(chunk: WriterChunk): boolean {
    const bytes = chunkBytes(chunk);
    return this.desiredSize !== null && this.accept([bytes], 0) === 1;
  }

  writevSync(chunks: readonly WriterChunk[]): boolean {
    const batch = batchBytes(chunks);
    if (!this.hasRoomFor(batch.length)) return false;
    this.accept(batch, 0);
    return true;
  }

  end(options?: WriterOptions): Promise<number> {
    if (this.ending !== undefined) return unlessAborted(this.ending, options?.signal);
    if (this.failed) return Promise.reject(this.failure);
    const writer = this.writer;
    this.ending = writer.close().then(
      () => {
        this.ended = true;
        return this.bytes;
      },
      // An errored stream refuses close() with a TypeError; its own error is what `closed` rejects with.
      (refusal: unknown) =>
        writer.closed.then(() => {
          throw refusal;
        }),
    );
    return unlessAborted(this.ending, options?.signal);
  }

  endSync(): number {
    return this.ended ? this.bytes : -1;
  }

  fail(reason?: unknown): void {
    if (this.failed || this.ending !== undefined) return;
    this.failed = true;
    this.failure = reason;
    this.writer.abort(reason).catch(ignore);
  }

  [drainableProtocol](): Promise<boolean> | null {
    const desiredSize = this.desiredSize;
    if (desiredSize === null) return null;
    if (desiredSize > 0) return Promise.resolve(true);
    return this.writer.ready.then(
      () => this.desiredSize !== null,
      () => false,
    );
  }

  /** Accepts `batch`, waiting for room between parts of it as the queue fills. */
  private queue(batch: Uint8Array[], signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.failed) return Promise.reject(this.failure);
    if (this.ending !== undefined) return Promise.reject(new TypeError("Cannot write: the writer has ended"));
    const accepted = this.accept(batch, 0);
    return accepted === batch.length ? RESOLVED : this.queueRest(batch, accepted, signal);
  }

  private async queueRest(batch: Uint8Array[], accepted: number, signal: AbortSignal | undefined): Promise<void> {
    while (accepted < batch.length) {
      // Rejects with the stream's error if it errors meanwhile.
      await unlessAborted(this.writer.ready, signal);
      if (this.failed) throw this.failure;
      accepted = this.accept(batch, accepted);
    }
  }

  /** Whether `count` more chunks fit in the queue now. */
  private hasRoomFor(count: number): boolean {
    const desiredSize = this.desiredSize;
    if (desiredSize === null) return false;
    if (count === 0) return true;
    if (this.own !== undefined && countsOne(this.own)) return desiredSize >= count;
    return count === 1 && desiredSize > 0;
  }

  /**
   * Queues the chunks of `batch` from index `from` on while the queue has room (a drainpipe stream whose chunks
   * each count 1 takes as many as its `desiredSize` in one operation); returns the index of the first chunk not
   * accepted.
   */
  private accept(batch: Uint8Array[], from: number): number {
    const own = this.own;
    let next = from;
    if (own !== undefined) {
      while (next < batch.length) {
        const desiredSize = WritableStreamDefaultWriterGetDesiredSize(own);
        if (desiredSize === null || desiredSize <= 0) break;
        const count = Math.min(batch.length - next, batchLimit(ownerOf(own), desiredSize));
        const part = batch.slice(next, next + count);
        for (let i = 0; i < part.length; i++) this.bytes += (part[i] as Uint8Array).byteLength;
        writeBatch(own, part, UNOBSERVED, ignore);
        next += count;
      }
      return next;
    }
    const writer = this.writer;
    while (next < batch.length && (writer.desiredSize ?? 0) > 0) {
      const chunk = batch[next] as Uint8Array;
      this.bytes += chunk.byteLength;
      writer.write(chunk).catch(ignore);
      next += 1;
    }
    return next;
  }
}

/** The stream a writer of this module holds (it never releases its lock). */
function ownerOf(writer: WritableStreamDefaultWriter<Uint8Array>): DrainpipeWritableStream<Uint8Array> {
  return writer._ownerWritableStream as DrainpipeWritableStream<Uint8Array>;
}

/** Whether every chunk counts 1 against the stream's high-water mark (the default strategy). */
function countsOne(writer: WritableStreamDefaultWriter<Uint8Array>): boolean {
  return isCountOne(ownerOf(writer)._writableStreamController._strategySizeAlgorithm);
}

/**
 * A writer of the iterable-streams API over `writable` (drainpipe's `WritableStream` or the platform's), which it
 * locks. Chunks are accepted while the stream's queue has room (its `desiredSize`), so a slow sink never has more
 * than its high-water mark queued; then `write`/`writev` wait for room. Into a drainpipe stream whose chunks each
 * count 1 (the default strategy), a batch enters the queue as one operation, and a sink with `writev` receives it
 * in one call. A sink's failure rejects the next write or `end()` with the sink's error; `fail(reason)` aborts the
 * stream.
 *
 * @throws {TypeError} "Cannot make a writer: …" when `writable` is not a `WritableStream`, or is locked.
 * @example
 * ```ts
 * const received: number[] = [];
 * const writable = new WritableStream<Uint8Array>(
 *   { writev(chunks) { received.push(chunks.length); } },
 *   { highWaterMark: 16 }, // no size function: each chunk counts 1
 * );
 * const writer = toWriter(writable);
 * writer.writevSync([new Uint8Array(1), new Uint8Array(2), "abc"]); // true
 * await writer.end(); // 6
 * received; // [3]
 * ```
 */
export function toWriter(writable: DrainpipeWritableStream<Uint8Array> | WritableStream<Uint8Array>): Writer {
  if (isWritableStream<Uint8Array>(writable)) {
    if (IsWritableStreamLocked(writable)) throw new TypeError("Cannot make a writer: the WritableStream is locked");
    const own = AcquireWritableStreamDefaultWriter(writable);
    return new StreamWriter(own, own);
  }
  const getWriter = (writable as { getWriter?: unknown } | null)?.getWriter;
  if (typeof getWriter !== "function")
    throw new TypeError("Cannot make a writer: the argument is not a WritableStream");
  if ((writable as { locked?: unknown }).locked === true) {
    throw new TypeError("Cannot make a writer: the WritableStream is locked");
  }
  return new StreamWriter(getWriter.call(writable) as WebWriter, undefined);
}
