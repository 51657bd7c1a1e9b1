/**
 * `WritableStream` and the abstract operations that work on writable streams (WHATWG Streams §5.5).
 * @module
 */

import { type Completion, LazyDeferred } from "../base/completion.ts";
import { Deferred, promiseRejectedWith, promiseResolvedWith, uponPromise } from "../base/promise-helpers.ts";
import {
  convertQueuingStrategy,
  countOne,
  extractHighWaterMark,
  extractSizeAlgorithm,
  type QueuingStrategy,
  type SizeAlgorithm,
} from "../standard/queuing-strategy.ts";
import { hasOwnSlot, isObject, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { AbortSteps, ErrorSteps } from "../standard/writable-stream-controller-steps.ts";
import { convertUnderlyingSink, type UnderlyingSink } from "./underlying-sink.ts";
import {
  SetUpWritableStreamDefaultController,
  SetUpWritableStreamDefaultControllerFromUnderlyingSink,
  WritableStreamDefaultController,
  WritableStreamDefaultControllerClose,
} from "./writable-stream-default-controller.ts";
import {
  WritableStreamDefaultWriter,
  WritableStreamDefaultWriterEnsureReadyPromiseRejected,
} from "./writable-stream-default-writer.ts";
import { WriteRequestQueue } from "./write-request-queue.ts";

/** A writable stream's state ([[state]]). */
export type WritableStreamState = "writable" | "closed" | "erroring" | "errored";

/** Settles a pending write or close: a promise's resolving functions, or an internal observer. */
export interface WriteRequest {
  /** The operation succeeded. */
  resolve(value: undefined): void;
  /** The operation failed. */
  reject(reason: unknown): void;
}

/** [[pendingAbortRequest]] */
interface PendingAbortRequest {
  promise: Deferred<undefined>;
  reason: unknown;
  wasAlreadyErroring: boolean;
}

/**
 * A destination for data, written through a writer or by piping a `ReadableStream` into it.
 * @example
 * ```ts
 * const chunks: string[] = [];
 * const stream = new WritableStream<string>({ write(chunk) { chunks.push(chunk); } });
 * const writer = stream.getWriter();
 * await writer.write("a");
 * await writer.close();
 * ```
 */
export class WritableStream<W = unknown> {
  /** @internal [[backpressure]] */
  declare _backpressure: boolean;
  /** @internal [[closeRequest]] */
  declare _closeRequest: WriteRequest | undefined;
  /** @internal [[controller]] */
  declare _writableStreamController: WritableStreamDefaultController<W>;
  /** @internal [[inFlightWriteRequest]] */
  declare _inFlightWriteRequest: WriteRequest | undefined;
  /** @internal [[inFlightCloseRequest]] */
  declare _inFlightCloseRequest: WriteRequest | undefined;
  /** @internal [[pendingAbortRequest]] */
  declare _pendingAbortRequest: PendingAbortRequest | undefined;
  /** @internal [[state]] */
  declare _state: WritableStreamState;
  /** @internal [[storedError]] */
  declare _storedError: unknown;
  /** @internal [[writer]] */
  declare _writer: WritableStreamDefaultWriter<W> | undefined;
  /** @internal [[writeRequests]], with runs of one request stored once (see `write-request-queue.ts`) */
  declare _writeRequests: WriteRequestQueue;

  constructor(
    underlyingSink: UnderlyingSink<W> | null | undefined = undefined,
    strategy: QueuingStrategy<W> | undefined = undefined,
  ) {
    if (underlyingSink !== undefined && !isObject(underlyingSink)) {
      throw new TypeError("Cannot construct WritableStream: first parameter is not an object");
    }
    const convertedStrategy = convertQueuingStrategy<W>(strategy, "Second parameter");
    const sink = underlyingSink === undefined ? null : underlyingSink;
    const sinkDict = convertUnderlyingSink(sink, "First parameter");
    if (sinkDict.type !== undefined) {
      throw new RangeError("Cannot construct WritableStream: an underlying sink's type must be undefined");
    }
    InitializeWritableStream(this);
    const sizeAlgorithm = extractSizeAlgorithm(convertedStrategy);
    const highWaterMark = extractHighWaterMark(convertedStrategy, 1);
    SetUpWritableStreamDefaultControllerFromUnderlyingSink(this, sink, sinkDict, highWaterMark, sizeAlgorithm);
  }

  /** Whether a writer holds the stream's lock. */
  get locked(): boolean {
    if (!isWritableStream<W>(this)) throw streamBrandCheckError("locked");
    return IsWritableStreamLocked(this);
  }

  /** Aborts the stream: queued writes are discarded and the sink's `abort` is called. */
  abort(reason: unknown = undefined): Promise<void> {
    if (!isWritableStream<W>(this)) return promiseRejectedWith(streamBrandCheckError("abort"));
    if (IsWritableStreamLocked(this)) {
      return promiseRejectedWith(new TypeError("Cannot abort a stream that already has a writer"));
    }
    return WritableStreamAbort(this, reason);
  }

  /** Closes the stream after the queued writes. */
  close(): Promise<void> {
    if (!isWritableStream<W>(this)) return promiseRejectedWith(streamBrandCheckError("close"));
    if (IsWritableStreamLocked(this)) {
      return promiseRejectedWith(new TypeError("Cannot close a stream that already has a writer"));
    }
    if (WritableStreamCloseQueuedOrInFlight(this)) {
      return promiseRejectedWith(new TypeError("Cannot close a stream that is already closing"));
    }
    return WritableStreamClose(this);
  }

  /** Locks the stream to a new writer. */
  getWriter(): WritableStreamDefaultWriter<W> {
    if (!isWritableStream<W>(this)) throw streamBrandCheckError("getWriter");
    return AcquireWritableStreamDefaultWriter(this);
  }
}

makeEnumerable(WritableStream, ["locked", "abort", "close", "getWriter"]);
setToStringTag(WritableStream, "WritableStream");

function streamBrandCheckError(name: string): TypeError {
  return new TypeError(`Cannot use WritableStream.prototype.${name}: receiver is not a WritableStream`);
}

/** Implements {@link https://streams.spec.whatwg.org/#acquire-writable-stream-default-writer | AcquireWritableStreamDefaultWriter}. */
export function AcquireWritableStreamDefaultWriter<W>(stream: WritableStream<W>): WritableStreamDefaultWriter<W> {
  // The constructor's own checks pass for a stream; made by `new`, the writer keeps its slots in the object itself.
  return new WritableStreamDefaultWriter(stream);
}

/** Implements {@link https://streams.spec.whatwg.org/#create-writable-stream | CreateWritableStream}: a stream driven by internal algorithms. */
export function CreateWritableStream<W>(
  startAlgorithm: () => unknown,
  writeAlgorithm: (chunk: W) => Completion,
  closeAlgorithm: () => Promise<unknown>,
  abortAlgorithm: (reason: unknown) => Promise<unknown>,
  highWaterMark = 1,
  sizeAlgorithm: SizeAlgorithm<W> = countOne,
): WritableStream<W> {
  const stream = Object.create(WritableStream.prototype) as WritableStream<W>;
  InitializeWritableStream(stream);
  const controller = Object.create(WritableStreamDefaultController.prototype) as WritableStreamDefaultController<W>;
  SetUpWritableStreamDefaultController(
    stream,
    controller,
    startAlgorithm,
    writeAlgorithm,
    closeAlgorithm,
    abortAlgorithm,
    highWaterMark,
    sizeAlgorithm,
    undefined,
  );
  return stream;
}

/** Implements {@link https://streams.spec.whatwg.org/#initialize-writable-stream | InitializeWritableStream}. */
export function InitializeWritableStream<W>(stream: WritableStream<W>): void {
  stream._state = "writable";
  stream._storedError = undefined;
  stream._writer = undefined;
  stream._writeRequests = new WriteRequestQueue();
  stream._inFlightWriteRequest = undefined;
  stream._closeRequest = undefined;
  stream._inFlightCloseRequest = undefined;
  stream._pendingAbortRequest = undefined;
  stream._backpressure = false;
}

/** Brand check for `WritableStream`. */
export function isWritableStream<W = unknown>(value: unknown): value is WritableStream<W> {
  return hasOwnSlot(value, "_writableStreamController");
}

/** Implements {@link https://streams.spec.whatwg.org/#is-writable-stream-locked | IsWritableStreamLocked}. */
export function IsWritableStreamLocked<W>(stream: WritableStream<W>): boolean {
  return stream._writer !== undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-abort | WritableStreamAbort}. */
export function WritableStreamAbort<W>(stream: WritableStream<W>, reason: unknown): Promise<undefined> {
  if (stream._state === "closed" || stream._state === "errored") return promiseResolvedWith(undefined);
  stream._writableStreamController._abortController.abort(reason);
  const state = stream._state as WritableStreamState;
  if (state === "closed" || state === "errored") return promiseResolvedWith(undefined);
  if (stream._pendingAbortRequest !== undefined) return stream._pendingAbortRequest.promise.promise;
  let wasAlreadyErroring = false;
  let abortReason = reason;
  if (state === "erroring") {
    wasAlreadyErroring = true;
    abortReason = undefined;
  }
  const promise = new Deferred<undefined>();
  stream._pendingAbortRequest = { promise, reason: abortReason, wasAlreadyErroring };
  if (!wasAlreadyErroring) WritableStreamStartErroring(stream, abortReason);
  return promise.promise;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-close | WritableStreamClose}. */
export function WritableStreamClose<W>(stream: WritableStream<W>): Promise<undefined> {
  const state = stream._state;
  if (state === "closed" || state === "errored") {
    return promiseRejectedWith(new TypeError(`Cannot close the stream: current state is ${state}`));
  }
  const promise = new Deferred<undefined>();
  stream._closeRequest = promise;
  const writer = stream._writer;
  if (writer !== undefined && stream._backpressure && state === "writable") {
    writer._readyPromise.resolve(undefined);
  }
  WritableStreamDefaultControllerClose(stream._writableStreamController);
  return promise.promise;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-add-write-request | WritableStreamAddWriteRequest}, with the request supplied by the caller. */
export function WritableStreamAddWriteRequest<W>(stream: WritableStream<W>, request: WriteRequest): void {
  stream._writeRequests.push(request);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-close-queued-or-in-flight | WritableStreamCloseQueuedOrInFlight}. */
export function WritableStreamCloseQueuedOrInFlight<W>(stream: WritableStream<W>): boolean {
  return stream._closeRequest !== undefined || stream._inFlightCloseRequest !== undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-deal-with-rejection | WritableStreamDealWithRejection}. */
export function WritableStreamDealWithRejection<W>(stream: WritableStream<W>, error: unknown): void {
  if (stream._state === "writable") {
    WritableStreamStartErroring(stream, error);
    return;
  }
  WritableStreamFinishErroring(stream);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-finish-erroring | WritableStreamFinishErroring}. */
export function WritableStreamFinishErroring<W>(stream: WritableStream<W>): void {
  stream._state = "errored";
  stream._writableStreamController[ErrorSteps]();
  const storedError = stream._storedError;
  stream._writeRequests.rejectAll(storedError);
  const abortRequest = stream._pendingAbortRequest;
  if (abortRequest === undefined) {
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  stream._pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.promise.reject(storedError);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const promise = stream._writableStreamController[AbortSteps](abortRequest.reason);
  uponPromise(
    promise,
    () => {
      abortRequest.promise.resolve(undefined);
      WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    },
    (reason) => {
      abortRequest.promise.reject(reason);
      WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    },
  );
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close | WritableStreamFinishInFlightClose}. */
export function WritableStreamFinishInFlightClose<W>(stream: WritableStream<W>): void {
  (stream._inFlightCloseRequest as WriteRequest).resolve(undefined);
  stream._inFlightCloseRequest = undefined;
  if (stream._state === "erroring") {
    stream._storedError = undefined;
    if (stream._pendingAbortRequest !== undefined) {
      stream._pendingAbortRequest.promise.resolve(undefined);
      stream._pendingAbortRequest = undefined;
    }
  }
  stream._state = "closed";
  const writer = stream._writer;
  if (writer !== undefined) writer._closedPromise.resolve(undefined);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close-with-error | WritableStreamFinishInFlightCloseWithError}. */
export function WritableStreamFinishInFlightCloseWithError<W>(stream: WritableStream<W>, error: unknown): void {
  (stream._inFlightCloseRequest as WriteRequest).reject(error);
  stream._inFlightCloseRequest = undefined;
  if (stream._pendingAbortRequest !== undefined) {
    stream._pendingAbortRequest.promise.reject(error);
    stream._pendingAbortRequest = undefined;
  }
  WritableStreamDealWithRejection(stream, error);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write | WritableStreamFinishInFlightWrite}. */
export function WritableStreamFinishInFlightWrite<W>(stream: WritableStream<W>): void {
  (stream._inFlightWriteRequest as WriteRequest).resolve(undefined);
  stream._inFlightWriteRequest = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write-with-error | WritableStreamFinishInFlightWriteWithError}. */
export function WritableStreamFinishInFlightWriteWithError<W>(stream: WritableStream<W>, error: unknown): void {
  (stream._inFlightWriteRequest as WriteRequest).reject(error);
  stream._inFlightWriteRequest = undefined;
  WritableStreamDealWithRejection(stream, error);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-has-operation-marked-in-flight | WritableStreamHasOperationMarkedInFlight}. */
export function WritableStreamHasOperationMarkedInFlight<W>(stream: WritableStream<W>): boolean {
  return stream._inFlightWriteRequest !== undefined || stream._inFlightCloseRequest !== undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-mark-close-request-in-flight | WritableStreamMarkCloseRequestInFlight}. */
export function WritableStreamMarkCloseRequestInFlight<W>(stream: WritableStream<W>): void {
  stream._inFlightCloseRequest = stream._closeRequest;
  stream._closeRequest = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-mark-first-write-request-in-flight | WritableStreamMarkFirstWriteRequestInFlight}. */
export function WritableStreamMarkFirstWriteRequestInFlight<W>(stream: WritableStream<W>): void {
  stream._inFlightWriteRequest = stream._writeRequests.shift();
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-reject-close-and-closed-promise-if-needed | WritableStreamRejectCloseAndClosedPromiseIfNeeded}. */
export function WritableStreamRejectCloseAndClosedPromiseIfNeeded<W>(stream: WritableStream<W>): void {
  if (stream._closeRequest !== undefined) {
    stream._closeRequest.reject(stream._storedError);
    stream._closeRequest = undefined;
  }
  const writer = stream._writer;
  if (writer !== undefined) writer._closedPromise.reject(stream._storedError);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-start-erroring | WritableStreamStartErroring}. */
export function WritableStreamStartErroring<W>(stream: WritableStream<W>, reason: unknown): void {
  const controller = stream._writableStreamController;
  stream._state = "erroring";
  stream._storedError = reason;
  const writer = stream._writer;
  if (writer !== undefined) WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason);
  if (!WritableStreamHasOperationMarkedInFlight(stream) && controller._started) {
    WritableStreamFinishErroring(stream);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-update-backpressure | WritableStreamUpdateBackpressure}. */
export function WritableStreamUpdateBackpressure<W>(stream: WritableStream<W>, backpressure: boolean): void {
  const writer = stream._writer;
  const changed = backpressure !== stream._backpressure;
  stream._backpressure = backpressure;
  if (writer === undefined || !changed) return;
  if (backpressure) {
    if (!writer._readyPromise.rearm()) writer._readyPromise = new LazyDeferred<undefined>();
  } else writer._readyPromise.resolve(undefined);
}
