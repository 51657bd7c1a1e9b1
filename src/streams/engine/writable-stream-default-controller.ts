/**
 * `WritableStreamDefaultController` and its abstract operations (WHATWG Streams §5.4 and §5.5.4).
 * @module
 */

import "../platform-types.ts";
import { type Completion, callWithChunkForCompletion, LazyDeferred, reactTo } from "../base/completion.ts";
import { promiseCall, promiseResolvedWith, resolvedUndefined, uponPromise } from "../base/promise-helpers.ts";
import { QueueWithSizes } from "../standard/queue-with-sizes.ts";
import type { SizeAlgorithm } from "../standard/queuing-strategy.ts";
import { hasOwnSlot, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { AbortSteps, ErrorSteps } from "../standard/writable-stream-controller-steps.ts";
import { writableStreamDefaultControllerFinishWrite } from "./fast-paths/finish-write.ts";
import { type WritevAlgorithm, writableStreamDefaultControllerProcessWritev } from "./fast-paths/writev.ts";
import type { ConvertedUnderlyingSink } from "./underlying-sink.ts";
import {
  type WritableStream,
  WritableStreamCloseQueuedOrInFlight,
  WritableStreamDealWithRejection,
  WritableStreamFinishErroring,
  WritableStreamFinishInFlightClose,
  WritableStreamFinishInFlightCloseWithError,
  WritableStreamFinishInFlightWriteWithError,
  WritableStreamMarkCloseRequestInFlight,
  WritableStreamMarkFirstWriteRequestInFlight,
  WritableStreamStartErroring,
  WritableStreamUpdateBackpressure,
} from "./writable-stream.ts";

/** Sink algorithms used by the controller. */
export type WriteAlgorithm<W> = (chunk: W) => Completion;

/**
 * Lets an underlying sink error the stream and observe aborts through `signal`.
 * Instances are created by the stream; the constructor throws.
 * @example
 * ```ts
 * declare const socket: { close(): void };
 * new WritableStream({
 *   start(controller) {
 *     controller.signal.addEventListener("abort", () => socket.close());
 *   },
 * });
 * ```
 */
export class WritableStreamDefaultController<W = unknown> {
  /** @internal [[abortAlgorithm]] */
  declare _abortAlgorithm: ((reason: unknown) => Promise<unknown>) | undefined;
  /** @internal [[abortController]] */
  declare _abortController: AbortController;
  /** @internal [[closeAlgorithm]] */
  declare _closeAlgorithm: (() => Promise<unknown>) | undefined;
  /**
   * @internal [[queue]] and [[queueTotalSize]]: the chunks (of type `W`), without the close sentinel, which is
   * {@link WritableStreamDefaultController._closeQueued}. Typed `unknown` so that the stream's type parameter stays
   * out of the queue's variance.
   */
  declare _queue: QueueWithSizes<unknown>;
  /**
   * @internal Whether [[queue]] ends with the close sentinel (enqueued with size 0, so [[queueTotalSize]] is the
   * same either way). It is kept out of the queue's storage: a symbol stored among chunks that are all numbers
   * changes the kind of array they are kept in, in V8 and JavaScriptCore, and the code compiled for the queue
   * with it, once per stream.
   */
  declare _closeQueued: boolean;
  /** @internal [[started]] */
  declare _started: boolean;
  /** @internal [[strategyHWM]] */
  declare _strategyHWM: number;
  /** @internal [[strategySizeAlgorithm]] */
  declare _strategySizeAlgorithm: SizeAlgorithm<W> | undefined;
  /** @internal [[stream]] */
  declare _controlledWritableStream: WritableStream<W>;
  /** @internal [[writeAlgorithm]] */
  declare _writeAlgorithm: WriteAlgorithm<W> | undefined;
  /** @internal drainpipe: the sink's `writev`, when it has one. */
  declare _writevAlgorithm: WritevAlgorithm<W> | undefined;
  /**
   * @internal drainpipe: the sink's own `write` and the sink object, when the stream was built from a sink with a
   * `write`; called by {@link WritableStreamDefaultControllerProcessWrite} in place of the write algorithm (a
   * closure per stream that does the same), so that the call site does not see a new function with each stream,
   * which JavaScriptCore recompiles it for.
   */
  declare _underlyingWrite: UnderlyingWrite | undefined;
  /** @internal Number of queued chunks the in-flight write covers (more than 1 for a `writev` batch). */
  declare _inFlightCount: number;
  /**
   * @internal Set while a pipe holds the stream's lock: nobody can observe the write promises then, so a sink
   * write that completed synchronously is finished at once instead of a microtask later.
   */
  declare _synchronousCompletion: boolean;
  /** @internal Set by a pipe while it queues a batch, so the sink sees the whole batch (see `pipe-batches.ts`). */
  declare _corked: boolean;
  /** @internal Reaction to a sink write's fulfilment, allocated once per controller. */
  declare _onWriteFulfilled: () => void;
  /** @internal Reaction to a sink write's rejection, allocated once per controller. */
  declare _onWriteRejected: (reason: unknown) => void;

  constructor() {
    throw new TypeError("Illegal constructor: WritableStreamDefaultController instances are created by WritableStream");
  }

  /** Aborted when the stream is aborted, so in-flight sink work can stop early. */
  get signal(): AbortSignal {
    if (!isWritableStreamDefaultController(this)) throw controllerBrandCheckError("signal");
    return this._abortController.signal;
  }

  /** Errors the stream. */
  error(e: unknown = undefined): void {
    if (!isWritableStreamDefaultController(this)) throw controllerBrandCheckError("error");
    if (this._controlledWritableStream._state !== "writable") return;
    WritableStreamDefaultControllerError(this, e);
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#ws-default-controller-private-abort | [[AbortSteps]]}. */
  [AbortSteps](reason: unknown): Promise<unknown> {
    const result = (this._abortAlgorithm as (reason: unknown) => Promise<unknown>)(reason);
    WritableStreamDefaultControllerClearAlgorithms(this);
    return result;
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#ws-default-controller-private-error | [[ErrorSteps]]}. */
  [ErrorSteps](): void {
    this._queue.reset();
    this._closeQueued = false;
  }
}

makeEnumerable(WritableStreamDefaultController, ["signal", "error"]);
setToStringTag(WritableStreamDefaultController, "WritableStreamDefaultController");

function controllerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use WritableStreamDefaultController.prototype.${name}: receiver is not a WritableStreamDefaultController`,
  );
}

/** Brand check for `WritableStreamDefaultController`. */
export function isWritableStreamDefaultController(value: unknown): value is WritableStreamDefaultController<unknown> {
  return hasOwnSlot(value, "_controlledWritableStream");
}

/** An underlying sink's own `write` and the sink object. */
type UnderlyingWrite = { fn: (...args: never[]) => unknown; sink: unknown };

/** Implements {@link https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller | SetUpWritableStreamDefaultController} (plus the optional `writev` algorithm). */
export function SetUpWritableStreamDefaultController<W>(
  stream: WritableStream<W>,
  controller: WritableStreamDefaultController<W>,
  startAlgorithm: () => unknown,
  writeAlgorithm: WriteAlgorithm<W>,
  closeAlgorithm: () => Promise<unknown>,
  abortAlgorithm: (reason: unknown) => Promise<unknown>,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm<W>,
  writevAlgorithm: WritevAlgorithm<W> | undefined,
  underlyingWrite: UnderlyingWrite | undefined = undefined,
): void {
  controller._controlledWritableStream = stream;
  stream._writableStreamController = controller;
  controller._queue = new QueueWithSizes();
  controller._closeQueued = false;
  controller._abortController = new AbortController();
  controller._started = false;
  controller._strategySizeAlgorithm = sizeAlgorithm;
  controller._strategyHWM = highWaterMark;
  controller._writeAlgorithm = writeAlgorithm;
  controller._writevAlgorithm = writevAlgorithm;
  controller._underlyingWrite = underlyingWrite;
  controller._closeAlgorithm = closeAlgorithm;
  controller._abortAlgorithm = abortAlgorithm;
  controller._inFlightCount = 0;
  controller._synchronousCompletion = false;
  controller._corked = false;
  controller._onWriteFulfilled = () => {
    writableStreamDefaultControllerFinishWrite(controller);
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  };
  controller._onWriteRejected = (reason) => {
    controller._inFlightCount = 0;
    if (stream._state === "writable") WritableStreamDefaultControllerClearAlgorithms(controller);
    WritableStreamFinishInFlightWriteWithError(stream, reason);
  };
  WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
  const startResult = startAlgorithm();
  uponPromise(
    promiseResolvedWith(startResult),
    () => {
      controller._started = true;
      WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    },
    (r) => {
      controller._started = true;
      WritableStreamDealWithRejection(stream, r);
    },
  );
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink | SetUpWritableStreamDefaultControllerFromUnderlyingSink}. */
export function SetUpWritableStreamDefaultControllerFromUnderlyingSink<W>(
  stream: WritableStream<W>,
  underlyingSink: unknown,
  underlyingSinkDict: ConvertedUnderlyingSink,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm<W>,
): void {
  const controller = Object.create(WritableStreamDefaultController.prototype) as WritableStreamDefaultController<W>;
  const { start, write, writev, close, abort } = underlyingSinkDict;
  const startAlgorithm =
    start === undefined ? () => undefined : () => Reflect.apply(start, underlyingSink, [controller]);
  const writeAlgorithm: WriteAlgorithm<W> =
    write !== undefined
      ? (chunk) => callWithChunkForCompletion(write, underlyingSink, chunk, controller)
      : writev !== undefined
        ? (chunk) => callWithChunkForCompletion(writev, underlyingSink, [chunk], controller)
        : () => undefined;
  const writevAlgorithm: WritevAlgorithm<W> | undefined =
    writev === undefined
      ? undefined
      : (chunks) => callWithChunkForCompletion(writev, underlyingSink, chunks, controller);
  const closeAlgorithm = close === undefined ? () => resolvedUndefined : () => promiseCall(close, underlyingSink);
  const abortAlgorithm =
    abort === undefined
      ? () => resolvedUndefined
      : (reason: unknown) => promiseCall(abort, underlyingSink, reason as never);
  SetUpWritableStreamDefaultController(
    stream,
    controller,
    startAlgorithm,
    writeAlgorithm,
    closeAlgorithm,
    abortAlgorithm,
    highWaterMark,
    sizeAlgorithm,
    writevAlgorithm,
    write === undefined ? undefined : { fn: write, sink: underlyingSink },
  );
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-advance-queue-if-needed | WritableStreamDefaultControllerAdvanceQueueIfNeeded}.
 * Written as a loop so that, while a pipe holds the lock, writes the sink completes synchronously are finished and
 * followed by the next one without a microtask each.
 */
export function WritableStreamDefaultControllerAdvanceQueueIfNeeded<W>(
  controller: WritableStreamDefaultController<W>,
): void {
  const stream = controller._controlledWritableStream;
  for (;;) {
    if (!controller._started || controller._corked) return;
    if (stream._inFlightWriteRequest !== undefined) return;
    const state = stream._state;
    if (state === "erroring") {
      WritableStreamFinishErroring(stream);
      return;
    }
    const queue = controller._queue;
    if (queue.length === 0) {
      if (controller._closeQueued) WritableStreamDefaultControllerProcessClose(controller);
      return;
    }
    const value = queue.peek();
    let completion: Completion;
    const chunkCount = queue.length;
    if (controller._writevAlgorithm !== undefined && chunkCount > 1) {
      completion = writableStreamDefaultControllerProcessWritev(controller, queue.peekMany(chunkCount) as W[]);
    } else {
      completion = WritableStreamDefaultControllerProcessWrite(controller, value as W);
    }
    if (!writableStreamDefaultControllerAfterSinkWrite(controller, completion)) return;
  }
}

/**
 * The steps of WritableStreamDefaultControllerProcessWrite (or of its `writev` form) once the sink's write has
 * returned `completion`: the reaction to it, or, while a pipe holds the lock (nobody else can observe when the
 * write settles), its fulfilment steps at once when it completed synchronously. Returns `true` when the write was
 * finished at once (the caller then advances the queue).
 */
export function writableStreamDefaultControllerAfterSinkWrite<W>(
  controller: WritableStreamDefaultController<W>,
  completion: Completion,
): boolean {
  if (controller._synchronousCompletion) {
    if (completion === undefined || (completion instanceof LazyDeferred && completion.state === "fulfilled")) {
      writableStreamDefaultControllerFinishWrite(controller);
      return true;
    }
    if (
      completion instanceof LazyDeferred &&
      completion.observeFulfilment(controller._onWriteFulfilled, controller._onWriteRejected)
    ) {
      return false;
    }
  }
  reactTo(completion, controller._onWriteFulfilled, controller._onWriteRejected);
  return false;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-clear-algorithms | WritableStreamDefaultControllerClearAlgorithms}. */
export function WritableStreamDefaultControllerClearAlgorithms<W>(
  controller: WritableStreamDefaultController<W>,
): void {
  controller._writeAlgorithm = undefined;
  controller._writevAlgorithm = undefined;
  controller._underlyingWrite = undefined;
  controller._closeAlgorithm = undefined;
  controller._abortAlgorithm = undefined;
  controller._strategySizeAlgorithm = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-close | WritableStreamDefaultControllerClose}. */
export function WritableStreamDefaultControllerClose<W>(controller: WritableStreamDefaultController<W>): void {
  controller._closeQueued = true;
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-error | WritableStreamDefaultControllerError}. */
export function WritableStreamDefaultControllerError<W>(
  controller: WritableStreamDefaultController<W>,
  error: unknown,
): void {
  WritableStreamDefaultControllerClearAlgorithms(controller);
  WritableStreamStartErroring(controller._controlledWritableStream, error);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-error-if-needed | WritableStreamDefaultControllerErrorIfNeeded}. */
export function WritableStreamDefaultControllerErrorIfNeeded<W>(
  controller: WritableStreamDefaultController<W>,
  error: unknown,
): void {
  if (controller._controlledWritableStream._state === "writable") {
    WritableStreamDefaultControllerError(controller, error);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-get-backpressure | WritableStreamDefaultControllerGetBackpressure}. */
export function WritableStreamDefaultControllerGetBackpressure<W>(
  controller: WritableStreamDefaultController<W>,
): boolean {
  return WritableStreamDefaultControllerGetDesiredSize(controller) <= 0;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-get-chunk-size | WritableStreamDefaultControllerGetChunkSize}. */
export function WritableStreamDefaultControllerGetChunkSize<W>(
  controller: WritableStreamDefaultController<W>,
  chunk: W,
): number {
  const sizeAlgorithm = controller._strategySizeAlgorithm;
  if (sizeAlgorithm === undefined) return 1;
  try {
    return sizeAlgorithm(chunk);
  } catch (error) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, error);
    return 1;
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-get-desired-size | WritableStreamDefaultControllerGetDesiredSize}. */
export function WritableStreamDefaultControllerGetDesiredSize<W>(
  controller: WritableStreamDefaultController<W>,
): number {
  return controller._strategyHWM - controller._queue.totalSize;
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-process-close | WritableStreamDefaultControllerProcessClose}. */
export function WritableStreamDefaultControllerProcessClose<W>(controller: WritableStreamDefaultController<W>): void {
  const stream = controller._controlledWritableStream;
  WritableStreamMarkCloseRequestInFlight(stream);
  controller._closeQueued = false;
  const sinkClosePromise = (controller._closeAlgorithm as () => Promise<unknown>)();
  WritableStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(
    sinkClosePromise,
    () => {
      WritableStreamFinishInFlightClose(stream);
    },
    (reason) => {
      WritableStreamFinishInFlightCloseWithError(stream, reason);
    },
  );
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-process-write | WritableStreamDefaultControllerProcessWrite},
 * up to calling the sink: returns the sink's completion, to which the caller
 * ({@link WritableStreamDefaultControllerAdvanceQueueIfNeeded}) reacts.
 */
export function WritableStreamDefaultControllerProcessWrite<W>(
  controller: WritableStreamDefaultController<W>,
  chunk: W,
): Completion {
  const stream = controller._controlledWritableStream;
  WritableStreamMarkFirstWriteRequestInFlight(stream);
  controller._inFlightCount = 1;
  const underlyingWrite = controller._underlyingWrite;
  if (underlyingWrite !== undefined) {
    return callWithChunkForCompletion(underlyingWrite.fn, underlyingWrite.sink, chunk, controller);
  }
  return (controller._writeAlgorithm as WriteAlgorithm<W>)(chunk);
}

/** Implements {@link https://streams.spec.whatwg.org/#writable-stream-default-controller-write | WritableStreamDefaultControllerWrite}. */
export function WritableStreamDefaultControllerWrite<W>(
  controller: WritableStreamDefaultController<W>,
  chunk: W,
  chunkSize: number,
): void {
  try {
    controller._queue.enqueue(chunk, chunkSize);
  } catch (error) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, error);
    return;
  }
  const stream = controller._controlledWritableStream;
  if (!WritableStreamCloseQueuedOrInFlight(stream) && stream._state === "writable") {
    WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
  }
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}
