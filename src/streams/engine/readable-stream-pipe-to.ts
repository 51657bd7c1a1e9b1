/**
 * ReadableStreamPipeTo (WHATWG Streams §4.9.1), written as one state object per pipe: the pipe itself is the
 * read request and the write request it hands to the streams, so moving a chunk allocates no promise and no
 * closure. Chunks already queued in the source are moved synchronously while the destination wants more.
 * @module
 */

import {
  Deferred,
  promiseResolvedWith,
  queueMicrotaskInternal,
  resolvedUndefined,
  uponPromise,
} from "../base/promise-helpers.ts";
import { batchLimit, writeBatch } from "./fast-paths/pipe-batches.ts";
import { ChunkCollector, type ChunkSink, drainSynchronously, hasQueuedData } from "./fast-paths/synchronous-drain.ts";
import { writableStreamDefaultWriterWriteWithRequest } from "./fast-paths/write-with-request.ts";
import {
  type FusedReader,
  type FusedWriter,
  forgetFusedReader,
  registerFusedReader,
  transformStreamOf,
  writeFused,
} from "./fused/fused-hop.ts";
import {
  AcquireReadableStreamDefaultReader,
  type ReadableStream,
  ReadableStreamAddReadRequest,
  ReadableStreamCancel,
} from "./readable-stream.ts";
import { ReadableStreamDefaultController } from "./readable-stream-default-controller.ts";
import {
  type ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderRead,
  ReadableStreamDefaultReaderRelease,
  type ReadRequest,
} from "./readable-stream-default-reader.ts";
import { internalReaderReleasedError } from "./readable-stream-generic-reader.ts";
import type { TransformStream } from "./transform-stream.ts";
import {
  AcquireWritableStreamDefaultWriter,
  type WritableStream,
  WritableStreamAbort,
  WritableStreamCloseQueuedOrInFlight,
} from "./writable-stream.ts";
import {
  internalWriterReleasedError,
  type WritableStreamDefaultWriter,
  WritableStreamDefaultWriterCloseWithErrorPropagation,
  WritableStreamDefaultWriterGetDesiredSize,
  WritableStreamDefaultWriterRelease,
} from "./writable-stream-default-writer.ts";
import type { RunWriteRequest } from "./write-request-queue.ts";

type Action = () => Promise<unknown>;

function setPipedFrom<R>(source: ReadableStream<R>, piped: boolean): void {
  const controller = source._readableStreamController;
  if (controller instanceof ReadableStreamDefaultController) controller._pipedFrom = piped;
}

/** A pump that has moved this many chunks lets other microtasks run before it continues. */
const YIELD_AFTER_CHUNKS = 65_536;

/** Settles when every promise has settled; rejects with the first rejection (like `Promise.all`). */
function waitForAll(promises: Promise<unknown>[]): Promise<undefined> {
  if (promises.length === 0) return promiseResolvedWith(undefined);
  const all = new Deferred<undefined>();
  let remaining = promises.length;
  for (const promise of promises) {
    uponPromise(
      promise,
      () => {
        remaining -= 1;
        if (remaining === 0) all.resolve(undefined);
      },
      (reason) => all.reject(reason),
    );
  }
  return all.promise;
}

/** Drain sink of a pipe whose destination takes chunks one by one: each chunk is written as it is read. */
class InlineWrites<R> implements ChunkSink<R> {
  private readonly pipe: Pipe<R>;
  moved = 0;
  closed = false;
  errored = false;
  error: unknown = undefined;

  constructor(pipe: Pipe<R>) {
    this.pipe = pipe;
  }

  chunkSteps(chunk: R): void {
    this.moved += 1;
    this.pipe.pendingWrites += 1;
    this.pipe.write(chunk);
  }

  closeSteps(): void {
    this.closed = true;
  }

  errorSteps(error: unknown): void {
    this.errored = true;
    this.error = error;
  }

  wantsMore(): boolean {
    const pipe = this.pipe;
    if (pipe.shuttingDown || this.moved >= YIELD_AFTER_CHUNKS) return false;
    const desiredSize = WritableStreamDefaultWriterGetDesiredSize(pipe.writer);
    return desiredSize !== null && desiredSize > 0;
  }
}

class Pipe<R> implements ReadRequest<R>, RunWriteRequest, FusedReader<R>, FusedWriter {
  private readonly source: ReadableStream<R>;
  private readonly dest: WritableStream<R>;
  private readonly reader: ReadableStreamDefaultReader<R>;
  readonly writer: WritableStreamDefaultWriter<R>;
  private readonly preventClose: boolean;
  private readonly preventAbort: boolean;
  private readonly preventCancel: boolean;
  private readonly signal: AbortSignal | undefined;
  /** The transform stream whose writable side is the destination, if it is one (see `fused/fused-hop.ts`). */
  private readonly transform: TransformStream<R, unknown> | undefined;
  /** The destination is an underlying sink with `writev`: chunks read in place are written in batches. */
  private readonly holdsBatches: boolean;
  private readonly promise = new Deferred<undefined>();
  shuttingDown = false;
  /** A read request is pending in the source. */
  private reading = false;
  /** The pump loop is on the stack (a read completed synchronously must not re-enter it). */
  private pumping = false;
  /** The source reported close or error to a read; no further reads. */
  private sourceEnded = false;
  /** Waiting for the destination's ready promise. */
  private waitingForReady = false;
  /** Chunks read but whose write has not settled yet. */
  pendingWrites = 0;
  /** Runs once `pendingWrites` drops to zero during shutdown. */
  private afterWrites: (() => void) | undefined = undefined;
  private abortListener: (() => void) | undefined = undefined;
  /** Collects the chunks of each batch for a `writev` destination that wants more than one chunk (reused). */
  private readonly batch = new ChunkCollector<R>(1, Infinity);
  /** Writes each drained chunk at once, for other destinations (a batch of one gains nothing). */
  private readonly inline = new InlineWrites<R>(this);
  /** Chunks handed over by the source outside the pump loop, written on the next microtask. */
  private deferredChunks: R[] = [];
  /**
   * Chunks a fused hop handed to this pipe's waiting read (see {@link Pipe.writeReadInPlace}), held to be written
   * as one batch into a `writev` destination: when they fill what the destination wants, on the next microtask, or
   * before anything else this pipe writes.
   */
  private heldChunks: R[] = [];
  /** Writes the held chunks as one batch (they go first, whatever this pipe writes next). */
  private readonly flushHeld: () => void;
  /** Writes the deferred chunks, then pumps. */
  private readonly flushDeferred: () => void;
  /** The destination is ready again: pumps. */
  private readonly onReady: () => void;
  /** Counts a write that failed synchronously once its promise settles. */
  private readonly onFailedWrite: (failure: Promise<undefined>) => void;

  constructor(
    source: ReadableStream<R>,
    dest: WritableStream<R>,
    preventClose: boolean,
    preventAbort: boolean,
    preventCancel: boolean,
    signal: AbortSignal | undefined,
  ) {
    this.source = source;
    this.dest = dest;
    this.reader = AcquireReadableStreamDefaultReader(source);
    this.writer = AcquireWritableStreamDefaultWriter(dest);
    this.transform = transformStreamOf(dest);
    this.holdsBatches = this.transform === undefined && dest._writableStreamController._writevAlgorithm !== undefined;
    this.preventClose = preventClose;
    this.preventAbort = preventAbort;
    this.preventCancel = preventCancel;
    this.signal = signal;
    // The callbacks are assigned, not class fields: bundlers that keep names (esbuild's `keepNames`, on in wrangler)
    // give each function a named field or binding holds its own `name` property, a property definition per pipe.
    this.flushHeld = () => {
      if (this.heldChunks.length === 0) return;
      const chunks = this.heldChunks;
      this.heldChunks = [];
      if (this.writer._ownerWritableStream === undefined) {
        this.writeSettled(chunks.length);
        return;
      }
      writeBatch(this.writer, chunks, this, this.onFailedWrite);
    };
    this.flushDeferred = () => {
      const chunks = this.deferredChunks;
      this.deferredChunks = [];
      for (const chunk of chunks) this.write(chunk);
      this.pump();
    };
    this.onReady = () => {
      this.waitingForReady = false;
      this.pump();
    };
    this.onFailedWrite = (failure) => {
      uponPromise(failure, undefined, () => this.writeSettled());
    };
  }

  start(): Promise<undefined> {
    this.source._disturbed = true;
    this.dest._writableStreamController._synchronousCompletion = true;
    setPipedFrom(this.source, true);
    registerFusedReader(this.source, this);
    const signal = this.signal;
    if (signal !== undefined) {
      if (signal.aborted) {
        this.abort(signal.reason);
        return this.promise.promise;
      }
      this.abortListener = () => this.abort(signal.reason);
      signal.addEventListener("abort", this.abortListener, { once: true });
    }
    this.watch();
    if (this.shuttingDown) return this.promise.promise;
    this.readFirstChunk();
    uponPromise(resolvedUndefined, this.onReady);
    return this.promise.promise;
  }

  /**
   * Reads at once when the destination wants chunks and the source has none queued, as the standard's pipe reads
   * without delay: the read request then waits for the source's first chunk, so a `pull` that enqueues and then
   * errors hands that chunk to the pipe. Nothing is written synchronously (the chunk arrives through
   * {@link Pipe.chunkSteps}).
   */
  private readFirstChunk(): void {
    const desiredSize = WritableStreamDefaultWriterGetDesiredSize(this.writer);
    if (desiredSize === null || desiredSize <= 0) return;
    if (this.source._state !== "readable" || hasQueuedData(this.source)) return;
    this.reading = true;
    ReadableStreamDefaultReaderRead(this.reader, this);
  }

  private abort(error: unknown): void {
    const actions: Action[] = [];
    const { dest, source } = this;
    if (!this.preventAbort) {
      actions.push(() => (dest._state === "writable" ? WritableStreamAbort(dest, error) : resolvedUndefined));
    }
    if (!this.preventCancel) {
      actions.push(() => (source._state === "readable" ? ReadableStreamCancel(source, error) : resolvedUndefined));
    }
    this.shutdownWithAction(() => waitForAll(actions.map((action) => action())), true, error);
  }

  /** Registers the propagation rules, in the specification's order. */
  private watch(): void {
    const { source, dest } = this;
    if (source._state === "errored") this.sourceErrored(source._storedError);
    else
      uponPromise(this.reader._closedPromise.promise, undefined, () => {
        if (source._state === "errored") this.sourceErrored(source._storedError);
      });
    if (dest._state === "errored") this.destErrored(dest._storedError);
    else
      uponPromise(this.writer._closedPromise.promise, undefined, () => {
        if (dest._state === "errored" || dest._state === "erroring") this.destErrored(dest._storedError);
      });
    if (source._state === "closed") this.sourceClosed();
    else uponPromise(this.reader._closedPromise.promise, () => this.sourceClosed());
    if (WritableStreamCloseQueuedOrInFlight(dest) || dest._state === "closed") {
      const destClosed = new TypeError("Cannot pipe to a stream that is closing or closed");
      if (!this.preventCancel)
        this.shutdownWithAction(() => ReadableStreamCancel(source, destClosed), true, destClosed);
      else this.shutdown(true, destClosed);
    }
  }

  /** Errors must be propagated forward: aborts the destination unless `preventAbort`. */
  private sourceErrored(storedError: unknown): void {
    if (!this.preventAbort) {
      this.shutdownWithAction(() => WritableStreamAbort(this.dest, storedError), true, storedError);
    } else {
      this.shutdown(true, storedError);
    }
  }

  /** Errors must be propagated backward: cancels the source unless `preventCancel`. */
  private destErrored(storedError: unknown): void {
    if (!this.preventCancel) {
      this.shutdownWithAction(() => ReadableStreamCancel(this.source, storedError), true, storedError);
    } else {
      this.shutdown(true, storedError);
    }
  }

  /** Closing must be propagated forward: closes the destination unless `preventClose`. */
  private sourceClosed(): void {
    if (!this.preventClose) {
      this.shutdownWithAction(
        () => WritableStreamDefaultWriterCloseWithErrorPropagation(this.writer),
        false,
        undefined,
      );
    } else {
      this.shutdown(false, undefined);
    }
  }

  /**
   * Reads while the destination wants chunks and the source has them synchronously; not while chunks read are
   * waiting to be written (the destination's `desiredSize` does not count them yet; writing them pumps again).
   */
  private pump(): void {
    if (this.pumping || this.deferredChunks.length > 0) return;
    if (this.holdsBatches && this.heldChunks.length > 0) this.flushHeld();
    this.pumping = true;
    let moved = 0;
    while (!this.shuttingDown && !this.reading && !this.waitingForReady && !this.sourceEnded) {
      const desiredSize = WritableStreamDefaultWriterGetDesiredSize(this.writer);
      if (desiredSize === null) break;
      if (desiredSize <= 0) {
        this.waitingForReady = true;
        const ready = this.writer._readyPromise;
        if (!ready.observeFulfilment(this.onReady)) ready.react(this.onReady);
        break;
      }
      let count: number;
      let ended: boolean;
      let pulledNothing: boolean;
      const limit =
        this.dest._writableStreamController._writevAlgorithm === undefined ? 1 : batchLimit(this.dest, desiredSize);
      if (limit > 1) {
        const batch = this.batch;
        batch.maxChunks = limit;
        pulledNothing = drainSynchronously(this.reader, batch);
        count = batch.chunks.length;
        if (count > 0) {
          this.pendingWrites += count;
          writeBatch(this.writer, batch.take(), this, this.onFailedWrite);
        }
        ended = batch.closed || batch.errored;
      } else {
        const inline = this.inline;
        inline.moved = 0;
        pulledNothing = drainSynchronously(this.reader, inline);
        count = inline.moved;
        ended = inline.closed || inline.errored;
      }
      moved += count;
      if (ended) {
        this.sourceEnded = true;
      } else if (moved >= YIELD_AFTER_CHUNKS && !this.shuttingDown) {
        this.waitingForReady = true;
        queueMicrotaskInternal(this.onReady);
        break;
      } else if (count === 0 || pulledNothing) {
        // A drain that ended on a pull that added nothing has made the read the standard makes next: its read
        // request now waits for data without pulling again (draining again would call `pull` once more).
        this.reading = true;
        if (pulledNothing) ReadableStreamAddReadRequest(this.source, this);
        else ReadableStreamDefaultReaderRead(this.reader, this);
      }
    }
    this.pumping = false;
  }

  /**
   * A chunk was read. Inside the pump loop (read from the queue) it is written at once; when the source hands
   * it over from `enqueue()` the write waits for a microtask, so the sink never runs inside the source's call.
   */
  chunkSteps(chunk: R): void {
    this.reading = false;
    this.pendingWrites += 1;
    if (this.pumping) {
      this.write(chunk);
      return;
    }
    this.deferredChunks.push(chunk);
    if (this.deferredChunks.length === 1) queueMicrotaskInternal(this.flushDeferred);
  }

  /**
   * Writes one chunk that has been read: into a transform stream, fused with the pipes around it when that is
   * equivalent (see `fused/fused-hop.ts`).
   */
  write(chunk: R): void {
    if (this.holdsBatches && this.heldChunks.length > 0) this.flushHeld();
    if (this.writer._ownerWritableStream === undefined) {
      this.writeSettled();
      return;
    }
    if (this.transform !== undefined && writeFused(this.transform, chunk, this)) return;
    const failed = writableStreamDefaultWriterWriteWithRequest(this.writer, chunk, this);
    if (failed !== undefined) this.onFailedWrite(failed);
  }

  mayReadInPlace(): boolean {
    return this.signal === undefined && !this.shuttingDown;
  }

  settleWriteInPlace(): void {
    this.writeSettled();
  }

  canReadInPlace(): boolean {
    return (
      this.reading &&
      this.signal === undefined &&
      !this.shuttingDown &&
      !this.pumping &&
      !this.waitingForReady &&
      !this.sourceEnded &&
      this.deferredChunks.length === 0
    );
  }

  /**
   * What {@link Pipe.chunkSteps} and the pump do with a chunk its waiting read receives: write it, read on. Into a
   * `writev` destination that wants more than one chunk, the chunks go as the pump's batches do: held until they
   * fill what the destination wants (or the next microtask), then written as one batch.
   */
  writeReadInPlace(chunk: R): boolean {
    this.pendingWrites += 1;
    if (!this.holdsBatches) {
      this.write(chunk);
    } else if (this.holdInPlace(chunk)) {
      return !this.shuttingDown && !this.sourceEnded;
    }
    if (this.shuttingDown || this.sourceEnded) return false;
    const desiredSize = WritableStreamDefaultWriterGetDesiredSize(this.writer);
    return desiredSize !== null && desiredSize > 0;
  }

  /**
   * Holds `chunk` for the batch when the destination wants more than the chunks held so far (`true`); otherwise
   * writes it, after them.
   */
  private holdInPlace(chunk: R): boolean {
    const held = this.heldChunks;
    const desiredSize = WritableStreamDefaultWriterGetDesiredSize(this.writer);
    if (desiredSize !== null && desiredSize > 1 && held.length + 1 < batchLimit(this.dest, desiredSize)) {
      held.push(chunk);
      if (held.length === 1) queueMicrotaskInternal(this.flushHeld);
      return true;
    }
    if (held.length === 0) {
      this.write(chunk);
    } else {
      held.push(chunk);
      this.flushHeld();
    }
    return false;
  }

  readTakenBack(): void {
    this.reading = false;
    this.pump();
  }

  closeSteps(): void {
    this.reading = false;
    this.sourceEnded = true;
  }

  errorSteps(): void {
    this.reading = false;
    this.sourceEnded = true;
  }

  /** A write finished. */
  resolve(): void {
    this.writeSettled();
  }

  /** A write failed; the destination's error is handled by the propagation rules. */
  reject(): void {
    this.writeSettled();
  }

  /** `count` writes finished (a run of this pipe's writes, see `write-request-queue.ts`). */
  resolveMany(count: number): void {
    this.writeSettled(count);
  }

  /** `count` writes failed. */
  rejectMany(count: number): void {
    this.writeSettled(count);
  }

  /**
   * Counts settled writes. The shutdown waiting for them continues on a microtask, as a reaction to the write
   * promises would: the destination settles a write request before it finishes its own steps for that write
   * (WritableStreamFinishInFlightWriteWithError deals with the rejection after rejecting the request), and an
   * abort taken in between would find the stream half-updated.
   */
  private writeSettled(count = 1): void {
    this.pendingWrites -= count;
    if (this.pendingWrites === 0 && this.afterWrites !== undefined) {
      const next = this.afterWrites;
      this.afterWrites = undefined;
      queueMicrotaskInternal(next);
    }
  }

  private waitForWrites(then: () => void): void {
    const dest = this.dest;
    if (dest._state === "writable" && !WritableStreamCloseQueuedOrInFlight(dest) && this.pendingWrites > 0) {
      this.afterWrites = then;
    } else if (dest._state === "writable" && !WritableStreamCloseQueuedOrInFlight(dest)) {
      uponPromise(resolvedUndefined, then);
    } else {
      then();
    }
  }

  private shutdownWithAction(action: Action, isError: boolean, originalError: unknown): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.waitForWrites(() => {
      uponPromise(
        action(),
        () => this.finalize(isError, originalError),
        (newError) => this.finalize(true, newError),
      );
    });
  }

  private shutdown(isError: boolean, error: unknown): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.waitForWrites(() => this.finalize(isError, error));
  }

  private finalize(isError: boolean, error: unknown): void {
    this.dest._writableStreamController._synchronousCompletion = false;
    setPipedFrom(this.source, false);
    forgetFusedReader(this.source);
    WritableStreamDefaultWriterRelease(this.writer, internalWriterReleasedError);
    ReadableStreamDefaultReaderRelease(this.reader, internalReaderReleasedError);
    if (this.signal !== undefined && this.abortListener !== undefined) {
      this.signal.removeEventListener("abort", this.abortListener);
    }
    if (isError) this.promise.reject(error);
    else this.promise.resolve(undefined);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-pipe-to | ReadableStreamPipeTo}. */
export function ReadableStreamPipeTo<R>(
  source: ReadableStream<R>,
  dest: WritableStream<R>,
  preventClose: boolean,
  preventAbort: boolean,
  preventCancel: boolean,
  signal: AbortSignal | undefined,
): Promise<undefined> {
  return new Pipe(source, dest, preventClose, preventAbort, preventCancel, signal).start();
}
