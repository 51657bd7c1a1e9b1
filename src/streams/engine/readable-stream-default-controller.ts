/**
 * `ReadableStreamDefaultController` and its abstract operations (WHATWG Streams §4.6 and §4.9.5).
 * @module
 */

import { debugAssert } from "../base/assert.ts";
import { callForCompletion, LazyDeferred, reactTo } from "../base/completion.ts";
import { promiseCall, promiseResolvedWith, resolvedUndefined, uponPromise } from "../base/promise-helpers.ts";
import { QueueWithSizes } from "../standard/queue-with-sizes.ts";
import { isCountOne, type SizeAlgorithm } from "../standard/queuing-strategy.ts";
import { CancelSteps, PullSteps, ReleaseSteps } from "../standard/readable-stream-controller-steps.ts";
import { createBrand, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { appendOnlyHolds, readableStreamDefaultControllerAppendUnit } from "./fast-paths/append-unit.ts";
import { dequeueMany, NO_CHUNK, tryDequeue } from "./fast-paths/dequeue.ts";
import {
  type CancelAlgorithm,
  IsReadableStreamLocked,
  type PullAlgorithm,
  type ReadableStream,
  ReadableStreamAddReadRequest,
  ReadableStreamClose,
  ReadableStreamError,
  ReadableStreamFulfillReadRequest,
  ReadableStreamGetNumReadRequests,
  type StartAlgorithm,
} from "./readable-stream.ts";
import type { ReadRequest } from "./readable-stream-default-reader.ts";
import type { ConvertedUnderlyingSource } from "./underlying-source.ts";

/** An underlying source's own `pull` and the source object (see `SetUpReadableStreamDefaultController`). */
export type UnderlyingPull<R> = { fn: (controller: ReadableStreamDefaultController<R>) => unknown; source: unknown };

/**
 * Controls a value `ReadableStream`: the underlying source enqueues chunks, closes or errors the stream.
 * Instances are created by the stream; the constructor throws.
 * @example
 * ```ts
 * new ReadableStream({ start(controller) { controller.enqueue("a"); controller.close(); } });
 * ```
 */
export class ReadableStreamDefaultController<R = unknown> {
  /** @internal [[stream]] */
  declare _controlledReadableStream: ReadableStream<R>;
  /** @internal [[queue]] and [[queueTotalSize]] */
  declare _queue: QueueWithSizes<R>;
  /** @internal [[started]] */
  declare _started: boolean;
  /** @internal [[closeRequested]] */
  declare _closeRequested: boolean;
  /** @internal [[pullAgain]] */
  declare _pullAgain: boolean;
  /** @internal [[pulling]] */
  declare _pulling: boolean;
  /** @internal [[strategySizeAlgorithm]] */
  declare _strategySizeAlgorithm: SizeAlgorithm<R> | undefined;
  /** @internal [[strategyHWM]] */
  declare _strategyHWM: number;
  /** @internal [[pullAlgorithm]] */
  declare _pullAlgorithm: PullAlgorithm | undefined;
  /** @internal [[cancelAlgorithm]] */
  declare _cancelAlgorithm: CancelAlgorithm | undefined;
  /**
   * @internal The pull in progress already completed synchronously; only its fulfilment reaction is pending.
   * `readMany` may then take over pulling.
   */
  declare _pullSettled: boolean;
  /** @internal Pending pull reactions to ignore because `readMany` took over from them. */
  declare _staleReactions: number;
  /**
   * @internal Set while a pipe reads the stream: an internal pull that completes through a {@link LazyDeferred}
   * (a transform stream's readable side) is then finished as soon as it settles instead of a microtask later.
   */
  declare _pipedFrom: boolean;
  /**
   * @internal Set while an enqueue is known to reduce to appending the chunk with size 1: the stream is readable
   * and not closing, the strategy is the default count-one one, the controller has started, the queue is not
   * empty (so no read request waits) and holds at least the high-water mark (so no pull is due, and appending
   * only adds to it). Set by {@link readableStreamDefaultControllerAppendUnit} once it has checked all that;
   * cleared by every step that could end one of those conditions: a dequeue, a reset, a close request, an
   * error, clearing the algorithms.
   */
  declare _appendOnly: boolean;
  /** @internal Reaction to the pull promise's fulfilment, allocated once per controller. */
  declare _onPullFulfilled: () => void;
  /** @internal Reaction to the pull promise's rejection, allocated once per controller. */
  declare _onPullRejected: (reason: unknown) => void;
  /**
   * @internal The underlying source's own `pull` and the source object, when the stream was built from one;
   * lets `readMany` see whether a pull completed synchronously.
   */
  declare _underlyingPull: UnderlyingPull<R> | undefined;

  /**
   * Throws: controllers are created by their streams. Internally, {@link createReadableStreamDefaultController}
   * passes a key only this module holds, and the constructor then gives every slot its place in the object
   * itself, in one fixed order (an object made by `Object.create` holds most of them in a separate property
   * store, reached through one more load and regrown as they are added).
   */
  constructor(key: unknown = undefined) {
    if (key !== constructionKey) {
      throw new TypeError(
        "Illegal constructor: ReadableStreamDefaultController instances are created by ReadableStream",
      );
    }
    this._controlledReadableStream = undefined as unknown as ReadableStream<R>;
    this._queue = new QueueWithSizes();
    this._started = false;
    this._closeRequested = false;
    this._pullAgain = false;
    this._pulling = false;
    this._strategySizeAlgorithm = undefined;
    this._strategyHWM = 0;
    this._pullAlgorithm = undefined;
    this._cancelAlgorithm = undefined;
    this._pullSettled = false;
    this._staleReactions = 0;
    this._pipedFrom = false;
    this._appendOnly = false;
    this._onPullFulfilled = returnUndefined;
    this._onPullRejected = returnUndefined;
    this._underlyingPull = undefined;
  }

  /** How much the stream wants: high-water mark minus queued size; `null` once errored, 0 once closed. */
  get desiredSize(): number | null {
    if (!isReadableStreamDefaultController(this)) throw controllerBrandCheckError("desiredSize");
    return ReadableStreamDefaultControllerGetDesiredSize(this);
  }

  /** Closes the stream once the queued chunks have been read. */
  close(): void {
    if (!isReadableStreamDefaultController(this)) throw controllerBrandCheckError("close");
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(this)) {
      throw new TypeError("Cannot close the stream: it is already closing, closed or errored");
    }
    ReadableStreamDefaultControllerClose(this);
  }

  /** Queues a chunk (or hands it straight to a waiting read). */
  enqueue(chunk: R = undefined as R): void {
    if (!isReadableStreamDefaultController(this)) throw controllerBrandCheckError("enqueue");
    if (this._appendOnly === true) {
      DEBUG: debugAssert(appendOnlyHolds(this), "_appendOnly is set, but an enqueue is more than an append");
      this._queue.enqueueUnit(chunk);
      return;
    }
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(this)) {
      throw new TypeError("Cannot enqueue a chunk: the stream is closing, closed or errored");
    }
    const pullDue = readableStreamDefaultControllerAppendUnit(this, chunk);
    if (pullDue === undefined) ReadableStreamDefaultControllerEnqueue(this, chunk);
    else if (pullDue) ReadableStreamDefaultControllerCallPullIfNeeded(this);
  }

  /** Errors the stream: pending and future reads reject with `e`. */
  error(e: unknown = undefined): void {
    if (!isReadableStreamDefaultController(this)) throw controllerBrandCheckError("error");
    ReadableStreamDefaultControllerError(this, e);
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#rs-default-controller-private-cancel | [[CancelSteps]]}. */
  [CancelSteps](reason: unknown): Promise<unknown> {
    this._appendOnly = false;
    this._queue.reset();
    const result = (this._cancelAlgorithm as CancelAlgorithm)(reason);
    ReadableStreamDefaultControllerClearAlgorithms(this);
    return result;
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#rs-default-controller-private-pull | [[PullSteps]]}. */
  [PullSteps](readRequest: ReadRequest<R>): void {
    const stream = this._controlledReadableStream;
    if (this._queue.length > 0) {
      const chunk = this._queue.dequeue();
      afterDequeue(this, stream);
      readRequest.chunkSteps(chunk);
    } else {
      ReadableStreamAddReadRequest(stream, readRequest);
      ReadableStreamDefaultControllerCallPullIfNeeded(this);
    }
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultcontroller-releasesteps | [[ReleaseSteps]]}. */
  [ReleaseSteps](): void {}

  /** @internal Synchronous form of [[PullSteps]] when a chunk is queued. */
  [tryDequeue](): R | typeof NO_CHUNK {
    if (this._queue.length === 0) return NO_CHUNK;
    const chunk = this._queue.dequeue();
    afterDequeue(this, this._controlledReadableStream);
    return chunk;
  }

  /** @internal `count` dequeues as one range operation, then the after-dequeue steps once. */
  [dequeueMany](count: number): R[] {
    const chunks = this._queue.take(count);
    afterDequeue(this, this._controlledReadableStream);
    return chunks;
  }
}

makeEnumerable(ReadableStreamDefaultController, ["desiredSize", "close", "enqueue", "error"]);
setToStringTag(ReadableStreamDefaultController, "ReadableStreamDefaultController");

function afterDequeue<R>(controller: ReadableStreamDefaultController<R>, stream: ReadableStream<R>): void {
  controller._appendOnly = false;
  if (controller._closeRequested && controller._queue.length === 0) {
    ReadableStreamDefaultControllerClearAlgorithms(controller);
    ReadableStreamClose(stream);
  } else {
    ReadableStreamDefaultControllerCallPullIfNeeded(controller);
  }
}

function controllerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use ReadableStreamDefaultController.prototype.${name}: receiver is not a ReadableStreamDefaultController`,
  );
}

/** What the constructor must be given to make a controller instead of throwing; never leaves this module. */
const constructionKey = Symbol("ReadableStreamDefaultController construction");

/** The start and pull algorithms of a source without `start` or `pull`. */
function returnUndefined(): undefined {
  return undefined;
}

/** The cancel algorithm of a source without `cancel`. */
function returnResolvedUndefined(): Promise<undefined> {
  return resolvedUndefined;
}

/** Marks the controllers set up by {@link SetUpReadableStreamDefaultController} (a per-chunk check in `enqueue`). */
const controllerBrand = createBrand();

/** Brand check for `ReadableStreamDefaultController`. */
export function isReadableStreamDefaultController(value: unknown): value is ReadableStreamDefaultController<unknown> {
  return controllerBrand.has(value);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-call-pull-if-needed | ReadableStreamDefaultControllerCallPullIfNeeded}. */
export function ReadableStreamDefaultControllerCallPullIfNeeded<R>(
  controller: ReadableStreamDefaultController<R>,
): void {
  if (!ReadableStreamDefaultControllerShouldCallPull(controller)) return;
  DEBUG: debugAssert(
    !controller._pipedFrom || IsReadableStreamLocked(controller._controlledReadableStream),
    "_pipedFrom is set on a stream that no reader holds",
  );
  if (controller._pulling) {
    controller._pullAgain = true;
    return;
  }
  controller._pulling = true;
  // An underlying source's own pull is called here, not through the closure made per stream that wraps it:
  // JavaScriptCore compiles a call site for the one closure it has seen and recompiles it for each new stream.
  const underlyingPull = controller._underlyingPull;
  const pullCompletion =
    underlyingPull !== undefined
      ? callForCompletion(underlyingPull.fn, underlyingPull.source, controller)
      : (controller._pullAlgorithm as PullAlgorithm)();
  controller._pullSettled = pullCompletion === undefined;
  if (controller._pipedFrom && pullCompletion instanceof LazyDeferred) {
    if (pullCompletion.state === "fulfilled") {
      controller._onPullFulfilled();
      return;
    }
    if (pullCompletion.observeFulfilment(controller._onPullFulfilled)) return;
  }
  reactTo(pullCompletion, controller._onPullFulfilled, controller._onPullRejected);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-should-call-pull | ReadableStreamDefaultControllerShouldCallPull}. */
export function ReadableStreamDefaultControllerShouldCallPull<R>(
  controller: ReadableStreamDefaultController<R>,
): boolean {
  // The standard's steps, with CanCloseOrEnqueue and GetDesiredSize (of a readable stream) written out: this runs up
  // to three times per chunk, and as calls they cost JavaScriptCore 7 % of a reader loop's instructions (Bun 1.4).
  const stream = controller._controlledReadableStream;
  if (controller._closeRequested || stream._state !== "readable" || !controller._started) return false;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  return controller._strategyHWM - controller._queue.totalSize > 0;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-clear-algorithms | ReadableStreamDefaultControllerClearAlgorithms}. */
export function ReadableStreamDefaultControllerClearAlgorithms<R>(
  controller: ReadableStreamDefaultController<R>,
): void {
  controller._appendOnly = false;
  controller._pullAlgorithm = undefined;
  controller._cancelAlgorithm = undefined;
  controller._strategySizeAlgorithm = undefined;
  controller._underlyingPull = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-close | ReadableStreamDefaultControllerClose}. */
export function ReadableStreamDefaultControllerClose<R>(controller: ReadableStreamDefaultController<R>): void {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  controller._appendOnly = false;
  controller._closeRequested = true;
  if (controller._queue.length === 0) {
    ReadableStreamDefaultControllerClearAlgorithms(controller);
    ReadableStreamClose(controller._controlledReadableStream);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-enqueue | ReadableStreamDefaultControllerEnqueue}. */
export function ReadableStreamDefaultControllerEnqueue<R>(
  controller: ReadableStreamDefaultController<R>,
  chunk: R,
): void {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  const stream = controller._controlledReadableStream;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) {
    ReadableStreamFulfillReadRequest(stream, chunk, false);
  } else {
    let chunkSize: number;
    try {
      const sizeAlgorithm = controller._strategySizeAlgorithm as SizeAlgorithm<R>;
      chunkSize = isCountOne(sizeAlgorithm) ? 1 : sizeAlgorithm(chunk);
    } catch (error) {
      ReadableStreamDefaultControllerError(controller, error);
      throw error;
    }
    try {
      controller._queue.enqueue(chunk, chunkSize);
    } catch (error) {
      ReadableStreamDefaultControllerError(controller, error);
      throw error;
    }
  }
  ReadableStreamDefaultControllerCallPullIfNeeded(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-error | ReadableStreamDefaultControllerError}. */
export function ReadableStreamDefaultControllerError<R>(
  controller: ReadableStreamDefaultController<R>,
  e: unknown,
): void {
  const stream = controller._controlledReadableStream;
  if (stream._state !== "readable") return;
  controller._queue.reset();
  ReadableStreamDefaultControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-get-desired-size | ReadableStreamDefaultControllerGetDesiredSize}. */
export function ReadableStreamDefaultControllerGetDesiredSize<R>(
  controller: ReadableStreamDefaultController<R>,
): number | null {
  const state = controller._controlledReadableStream._state;
  if (state === "errored") return null;
  if (state === "closed") return 0;
  return controller._strategyHWM - controller._queue.totalSize;
}

/** Implements {@link https://streams.spec.whatwg.org/#rs-default-controller-has-backpressure | ReadableStreamDefaultControllerHasBackpressure}. */
export function ReadableStreamDefaultControllerHasBackpressure<R>(
  controller: ReadableStreamDefaultController<R>,
): boolean {
  return !ReadableStreamDefaultControllerShouldCallPull(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-controller-can-close-or-enqueue | ReadableStreamDefaultControllerCanCloseOrEnqueue}. */
export function ReadableStreamDefaultControllerCanCloseOrEnqueue<R>(
  controller: ReadableStreamDefaultController<R>,
): boolean {
  return !controller._closeRequested && controller._controlledReadableStream._state === "readable";
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller | SetUpReadableStreamDefaultController}. */
export function SetUpReadableStreamDefaultController<R>(
  stream: ReadableStream<R>,
  controller: ReadableStreamDefaultController<R>,
  startAlgorithm: StartAlgorithm,
  pullAlgorithm: PullAlgorithm,
  cancelAlgorithm: CancelAlgorithm,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm<R>,
  underlyingPull: UnderlyingPull<R> | undefined = undefined,
): void {
  controller._controlledReadableStream = stream;
  controller._strategySizeAlgorithm = sizeAlgorithm;
  controller._strategyHWM = highWaterMark;
  controller._pullAlgorithm = pullAlgorithm;
  controller._cancelAlgorithm = cancelAlgorithm;
  // One reaction serves the start promise and every pull promise: no pull starts before [[started]] is set.
  controller._onPullFulfilled = () => {
    if (controller._started === false) {
      controller._started = true;
      ReadableStreamDefaultControllerCallPullIfNeeded(controller);
      return;
    }
    if (controller._staleReactions > 0) {
      controller._staleReactions -= 1;
      return;
    }
    DEBUG: debugAssert(
      controller._pulling,
      "a pull was fulfilled while none was in progress: _staleReactions missed one",
    );
    controller._pulling = false;
    controller._pullSettled = false;
    if (controller._pullAgain) {
      controller._pullAgain = false;
      ReadableStreamDefaultControllerCallPullIfNeeded(controller);
    }
  };
  controller._onPullRejected = (e) => {
    ReadableStreamDefaultControllerError(controller, e);
  };
  controller._underlyingPull = underlyingPull;
  controllerBrand.stamp(controller);
  stream._readableStreamController = controller;
  const startResult = startAlgorithm();
  // "A promise resolved with" undefined: the shared one reacts a microtask later all the same.
  const startPromise = startResult === undefined ? resolvedUndefined : promiseResolvedWith(startResult);
  uponPromise(startPromise, controller._onPullFulfilled, controller._onPullRejected);
}

/** A controller for SetUpReadableStreamDefaultController to set up. */
export function createReadableStreamDefaultController<R>(): ReadableStreamDefaultController<R> {
  return new ReadableStreamDefaultController<R>(constructionKey);
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller-from-underlying-source | SetUpReadableStreamDefaultControllerFromUnderlyingSource}. */
export function SetUpReadableStreamDefaultControllerFromUnderlyingSource<R>(
  stream: ReadableStream<R>,
  underlyingSource: unknown,
  underlyingSourceDict: ConvertedUnderlyingSource,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm<R>,
): void {
  const controller = createReadableStreamDefaultController<R>();
  const { start, pull, cancel } = underlyingSourceDict;
  const startAlgorithm: StartAlgorithm =
    start === undefined ? returnUndefined : () => Reflect.apply(start, underlyingSource, [controller]);
  const pullAlgorithm: PullAlgorithm =
    pull === undefined ? returnUndefined : () => callForCompletion(pull, underlyingSource, controller as never);
  const cancelAlgorithm: CancelAlgorithm =
    cancel === undefined ? returnResolvedUndefined : (reason) => promiseCall(cancel, underlyingSource, reason as never);
  SetUpReadableStreamDefaultController(
    stream,
    controller,
    startAlgorithm,
    pullAlgorithm,
    cancelAlgorithm,
    highWaterMark,
    sizeAlgorithm,
    pull === undefined
      ? undefined
      : { fn: pull as (c: ReadableStreamDefaultController<R>) => unknown, source: underlyingSource },
  );
}
