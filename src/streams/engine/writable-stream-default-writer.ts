/**
 * `WritableStreamDefaultWriter` and its abstract operations (WHATWG Streams §5.3 and §5.5.3).
 * @module
 */

import { debugAssert } from "../base/assert.ts";
import { LazyDeferred } from "../base/completion.ts";
import { Deferred, promiseRejectedWith, resolvedUndefined } from "../base/promise-helpers.ts";
import { assertRequiredArgument, createBrand, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { writableStreamDefaultWriterWriteWithRequest } from "./fast-paths/write-with-request.ts";
import {
  IsWritableStreamLocked,
  isWritableStream,
  type WritableStream,
  WritableStreamAbort,
  WritableStreamClose,
  WritableStreamCloseQueuedOrInFlight,
} from "./writable-stream.ts";
import { WritableStreamDefaultControllerGetDesiredSize } from "./writable-stream-default-controller.ts";

/**
 * Writes chunks to a locked `WritableStream`.
 * @example
 * ```ts
 * const writer = new WritableStream<string>({ write: (chunk) => console.log(chunk) }).getWriter();
 * await writer.ready;
 * writer.write("a");
 * await writer.close();
 * ```
 */
export class WritableStreamDefaultWriter<W = unknown> {
  /** @internal [[closedPromise]] */
  declare _closedPromise: LazyDeferred<undefined>;
  /** @internal [[readyPromise]] */
  declare _readyPromise: LazyDeferred<undefined>;
  /** @internal [[stream]] */
  declare _ownerWritableStream: WritableStream<W> | undefined;

  constructor(stream: WritableStream<W>) {
    assertRequiredArgument(stream, 1, "WritableStreamDefaultWriter");
    if (!isWritableStream(stream)) {
      throw new TypeError("Cannot construct WritableStreamDefaultWriter: first parameter is not a WritableStream");
    }
    SetUpWritableStreamDefaultWriter(this, stream as WritableStream<W>);
  }

  /** Fulfils when the stream closes; rejects when it errors or the lock is released. */
  get closed(): Promise<void> {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(writerBrandCheckError("closed"));
    return this._closedPromise.promise;
  }

  /** How much the stream wants; `null` when erroring or errored, 0 when closed. */
  get desiredSize(): number | null {
    if (!isWritableStreamDefaultWriter(this)) throw writerBrandCheckError("desiredSize");
    if (this._ownerWritableStream === undefined) {
      throw new TypeError("Cannot read desiredSize: the writer's lock has been released");
    }
    return WritableStreamDefaultWriterGetDesiredSize(this);
  }

  /** Fulfils when the stream has no backpressure. */
  get ready(): Promise<void> {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(writerBrandCheckError("ready"));
    return this._readyPromise.promise;
  }

  /** Aborts the stream. */
  abort(reason: unknown = undefined): Promise<void> {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(writerBrandCheckError("abort"));
    if (this._ownerWritableStream === undefined) {
      return promiseRejectedWith(new TypeError("Cannot abort a stream using a released writer"));
    }
    return WritableStreamDefaultWriterAbort(this, reason);
  }

  /** Closes the stream after queued writes. */
  close(): Promise<void> {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(writerBrandCheckError("close"));
    const stream = this._ownerWritableStream;
    if (stream === undefined)
      return promiseRejectedWith(new TypeError("Cannot close a stream using a released writer"));
    if (WritableStreamCloseQueuedOrInFlight(stream)) {
      return promiseRejectedWith(new TypeError("Cannot close a stream that is already closing"));
    }
    return WritableStreamDefaultWriterClose(this);
  }

  /** Releases the writer's lock. */
  releaseLock(): void {
    if (!isWritableStreamDefaultWriter(this)) throw writerBrandCheckError("releaseLock");
    if (this._ownerWritableStream === undefined) return;
    WritableStreamDefaultWriterRelease(this);
  }

  /** Writes a chunk; resolves when the sink has accepted it. */
  write(chunk: W = undefined as W): Promise<void> {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(writerBrandCheckError("write"));
    if (this._ownerWritableStream === undefined) {
      return promiseRejectedWith(new TypeError("Cannot write to a stream using a released writer"));
    }
    return WritableStreamDefaultWriterWrite(this, chunk);
  }
}

makeEnumerable(WritableStreamDefaultWriter, [
  "closed",
  "desiredSize",
  "ready",
  "abort",
  "close",
  "releaseLock",
  "write",
]);
setToStringTag(WritableStreamDefaultWriter, "WritableStreamDefaultWriter");

function writerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use WritableStreamDefaultWriter.prototype.${name}: receiver is not a WritableStreamDefaultWriter`,
  );
}

/** Marks the writers set up by {@link SetUpWritableStreamDefaultWriter} (a per-chunk check in `write`). */
const writerBrand = createBrand();

/** Brand check for `WritableStreamDefaultWriter`. */
export function isWritableStreamDefaultWriter(value: unknown): value is WritableStreamDefaultWriter<unknown> {
  return writerBrand.has(value);
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-writable-stream-default-writer | SetUpWritableStreamDefaultWriter}. */
export function SetUpWritableStreamDefaultWriter<W>(
  writer: WritableStreamDefaultWriter<W>,
  stream: WritableStream<W>,
): void {
  if (IsWritableStreamLocked(stream)) {
    throw new TypeError("Cannot get a writer: the stream is already locked");
  }
  DEBUG: debugAssert(
    !stream._writableStreamController._synchronousCompletion,
    "_synchronousCompletion is still set from a pipe that no longer holds the stream",
  );
  writer._ownerWritableStream = stream;
  writerBrand.stamp(writer);
  stream._writer = writer;
  const state = stream._state;
  if (state === "writable") {
    writer._readyPromise =
      !WritableStreamCloseQueuedOrInFlight(stream) && stream._backpressure
        ? new LazyDeferred<undefined>()
        : LazyDeferred.resolved<undefined>(undefined);
    writer._closedPromise = new LazyDeferred<undefined>();
  } else if (state === "erroring") {
    writer._readyPromise = LazyDeferred.rejected<undefined>(stream._storedError);
    writer._closedPromise = new LazyDeferred<undefined>();
  } else if (state === "closed") {
    writer._readyPromise = LazyDeferred.resolved<undefined>(undefined);
    writer._closedPromise = LazyDeferred.resolved<undefined>(undefined);
  } else {
    writer._readyPromise = LazyDeferred.rejected<undefined>(stream._storedError);
    writer._closedPromise = LazyDeferred.rejected<undefined>(stream._storedError);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-abort | WritableStreamDefaultWriterAbort}. */
export function WritableStreamDefaultWriterAbort<W>(
  writer: WritableStreamDefaultWriter<W>,
  reason: unknown,
): Promise<undefined> {
  return WritableStreamAbort(writer._ownerWritableStream as WritableStream<W>, reason);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-close | WritableStreamDefaultWriterClose}. */
export function WritableStreamDefaultWriterClose<W>(writer: WritableStreamDefaultWriter<W>): Promise<undefined> {
  return WritableStreamClose(writer._ownerWritableStream as WritableStream<W>);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-close-with-error-propagation | WritableStreamDefaultWriterCloseWithErrorPropagation}. */
export function WritableStreamDefaultWriterCloseWithErrorPropagation<W>(
  writer: WritableStreamDefaultWriter<W>,
): Promise<undefined> {
  const stream = writer._ownerWritableStream as WritableStream<W>;
  const state = stream._state;
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === "closed") return resolvedUndefined;
  if (state === "errored") return promiseRejectedWith(stream._storedError);
  return WritableStreamDefaultWriterClose(writer);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-closed-promise-rejected | WritableStreamDefaultWriterEnsureClosedPromiseRejected}. */
export function WritableStreamDefaultWriterEnsureClosedPromiseRejected<W>(
  writer: WritableStreamDefaultWriter<W>,
  error: unknown,
): void {
  if (writer._closedPromise.state === "pending") writer._closedPromise.reject(error);
  else writer._closedPromise = LazyDeferred.rejected<undefined>(error);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-ready-promise-rejected | WritableStreamDefaultWriterEnsureReadyPromiseRejected}. */
export function WritableStreamDefaultWriterEnsureReadyPromiseRejected<W>(
  writer: WritableStreamDefaultWriter<W>,
  error: unknown,
): void {
  if (writer._readyPromise.state === "pending") writer._readyPromise.reject(error);
  else writer._readyPromise = LazyDeferred.rejected<undefined>(error);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-get-desired-size | WritableStreamDefaultWriterGetDesiredSize}. */
export function WritableStreamDefaultWriterGetDesiredSize<W>(writer: WritableStreamDefaultWriter<W>): number | null {
  const stream = writer._ownerWritableStream as WritableStream<W>;
  const state = stream._state;
  if (state === "errored" || state === "erroring") return null;
  if (state === "closed") return 0;
  return WritableStreamDefaultControllerGetDesiredSize(stream._writableStreamController);
}

/** What a released writer's ready and closed promises reject with. */
const WRITER_RELEASED = "Cannot use the writer: its lock on the stream has been released";

/**
 * The TypeError a release rejects a pipe's writer's promises with: nobody outside drainpipe holds them, and the
 * pipe's reactions ignore the reason, so one error made once serves every pipe instead of a new one with a stack
 * trace each time.
 */
export const internalWriterReleasedError: TypeError = new TypeError(WRITER_RELEASED);

/**
 * Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-release | WritableStreamDefaultWriterRelease}.
 * `releasedError` is what the ready and closed promises reject with: a new TypeError unless the writer is internal
 * (see {@link internalWriterReleasedError}).
 */
export function WritableStreamDefaultWriterRelease<W>(
  writer: WritableStreamDefaultWriter<W>,
  releasedError: TypeError = new TypeError(WRITER_RELEASED),
): void {
  const stream = writer._ownerWritableStream as WritableStream<W>;
  WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, releasedError);
  WritableStreamDefaultWriterEnsureClosedPromiseRejected(writer, releasedError);
  stream._writer = undefined;
  writer._ownerWritableStream = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-writer-write | WritableStreamDefaultWriterWrite}. */
export function WritableStreamDefaultWriterWrite<W>(
  writer: WritableStreamDefaultWriter<W>,
  chunk: W,
): Promise<undefined> {
  const request = new Deferred<undefined>();
  const early = writableStreamDefaultWriterWriteWithRequest(writer, chunk, request);
  return early ?? request.promise;
}
