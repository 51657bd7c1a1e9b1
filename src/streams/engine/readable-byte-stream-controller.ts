/**
 * `ReadableByteStreamController` and its abstract operations (WHATWG Streams §4.7 and §4.9.6).
 * @module
 */

import { callForCompletion, reactTo } from "../base/completion.ts";
import { promiseCall, promiseResolvedWith, resolvedUndefined, uponPromise } from "../base/promise-helpers.ts";
import {
  type ArrayBufferViewConstructor,
  type ArrayBufferViewLike,
  arrayBufferSlice,
  assertArrayBufferView,
  canCopyDataBlockBytes,
  elementSizeOf,
  isDetachedBuffer,
  transferArrayBuffer,
  viewConstructorOf,
} from "../standard/array-buffer-helpers.ts";
import { CancelSteps, PullSteps, ReleaseSteps } from "../standard/readable-stream-controller-steps.ts";
import { SimpleQueue } from "../standard/simple-queue.ts";
import { assertRequiredArgument, hasOwnSlot, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { NO_CHUNK, tryDequeue } from "./fast-paths/dequeue.ts";
import {
  type CancelAlgorithm,
  type PullAlgorithm,
  type ReadableStream,
  ReadableStreamAddReadIntoRequest,
  ReadableStreamAddReadRequest,
  ReadableStreamClose,
  ReadableStreamError,
  ReadableStreamFulfillReadIntoRequest,
  ReadableStreamFulfillReadRequest,
  ReadableStreamGetNumReadIntoRequests,
  ReadableStreamGetNumReadRequests,
  ReadableStreamHasBYOBReader,
  ReadableStreamHasDefaultReader,
  type StartAlgorithm,
} from "./readable-stream.ts";
import type { ReadIntoRequest } from "./readable-stream-byob-reader.ts";
import { ReadableStreamBYOBRequest } from "./readable-stream-byob-request.ts";
import type { ReadRequest } from "./readable-stream-default-reader.ts";
import type { ConvertedUnderlyingSource } from "./underlying-source.ts";

/** A readable byte stream queue entry. */
interface ByteQueueEntry {
  buffer: ArrayBuffer;
  byteOffset: number;
  byteLength: number;
}

/** Who a pull-into descriptor serves. */
type ReaderType = "default" | "byob" | "none";

/** An underlying byte source's own `pull` and the source object. */
type UnderlyingBytePull = { fn: (controller: ReadableByteStreamController) => unknown; source: unknown };

/** A pull-into descriptor: a pending read into a caller's (or an auto-allocated) buffer. */
export interface PullIntoDescriptor {
  buffer: ArrayBuffer;
  bufferByteLength: number;
  byteOffset: number;
  byteLength: number;
  bytesFilled: number;
  minimumFill: number;
  elementSize: number;
  viewConstructor: ArrayBufferViewConstructor;
  readerType: ReaderType;
  /**
   * drainpipe's: whether code outside the controller may hold `buffer`, through a `byobRequest` view made over
   * it. Until then, transferring `buffer` to a new ArrayBuffer detaches nothing anyone can see, and the transfers
   * that only serve to detach such views (on enqueue, and when the filled descriptor becomes the read's view) are
   * skipped. A transfer gives the descriptor a buffer nobody holds again.
   */
  bufferExposed: boolean;
  /**
   * drainpipe's: a `Uint8Array` over the whole of a `buffer` the descriptor had, made at the first copy into it
   * and used for the copies after it while it still views the current `buffer`. Each copy then makes one view
   * (of the queued bytes) instead of two; JavaScriptCore makes a view over an existing buffer slowly.
   */
  bufferView: Uint8Array<ArrayBuffer> | undefined;
}

/**
 * Controls a byte `ReadableStream` (`type: "bytes"`): enqueues bytes, answers BYOB requests, closes or errors.
 * Instances are created by the stream; the constructor throws.
 * @example
 * ```ts
 * new ReadableStream({
 *   type: "bytes",
 *   pull(controller) {
 *     const request = controller.byobRequest;
 *     if (request) { request.view!.fill(1); request.respond(request.view!.byteLength); }
 *     else controller.enqueue(new Uint8Array([1, 2, 3]));
 *   },
 * });
 * ```
 */
export class ReadableByteStreamController {
  /** @internal [[stream]] */
  declare _controlledReadableByteStream: ReadableStream<Uint8Array>;
  /** @internal [[autoAllocateChunkSize]] */
  declare _autoAllocateChunkSize: number | undefined;
  /** @internal [[byobRequest]] */
  declare _byobRequest: ReadableStreamBYOBRequest | null;
  /** @internal [[cancelAlgorithm]] */
  declare _cancelAlgorithm: CancelAlgorithm | undefined;
  /** @internal [[closeRequested]] */
  declare _closeRequested: boolean;
  /** @internal [[pullAgain]] */
  declare _pullAgain: boolean;
  /** @internal [[pullAlgorithm]] */
  declare _pullAlgorithm: PullAlgorithm | undefined;
  /** @internal [[pulling]] */
  declare _pulling: boolean;
  /** @internal [[pendingPullIntos]] */
  declare _pendingPullIntos: SimpleQueue<PullIntoDescriptor>;
  /** @internal [[queue]] */
  declare _queue: SimpleQueue<ByteQueueEntry>;
  /** @internal [[queueTotalSize]] */
  declare _queueTotalSize: number;
  /** @internal [[started]] */
  declare _started: boolean;
  /** @internal [[strategyHWM]] */
  declare _strategyHWM: number;
  /**
   * @internal The underlying source's own `pull` and the source object, when the stream was built from one; called
   * by {@link ReadableByteStreamControllerCallPullIfNeeded} in place of the pull algorithm, which does the same.
   */
  declare _underlyingPull: UnderlyingBytePull | undefined;
  /** @internal Reaction to the pull promise's fulfilment, allocated once per controller. */
  declare _onPullFulfilled: () => void;
  /** @internal Reaction to the pull promise's rejection, allocated once per controller. */
  declare _onPullRejected: (reason: unknown) => void;

  constructor() {
    throw new TypeError("Illegal constructor: ReadableByteStreamController instances are created by ReadableStream");
  }

  /** The current BYOB request, or `null` when no read into a buffer is pending. */
  get byobRequest(): ReadableStreamBYOBRequest | null {
    if (!isReadableByteStreamController(this)) throw controllerBrandCheckError("byobRequest");
    return ReadableByteStreamControllerGetBYOBRequest(this);
  }

  /** High-water mark minus queued bytes; `null` once errored, 0 once closed. */
  get desiredSize(): number | null {
    if (!isReadableByteStreamController(this)) throw controllerBrandCheckError("desiredSize");
    return ReadableByteStreamControllerGetDesiredSize(this);
  }

  /** Closes the stream once queued bytes have been read. */
  close(): void {
    if (!isReadableByteStreamController(this)) throw controllerBrandCheckError("close");
    if (this._closeRequested) throw new TypeError("Cannot close the stream: it is already closing");
    const state = this._controlledReadableByteStream._state;
    if (state !== "readable") throw new TypeError(`Cannot close the stream: current state is ${state}`);
    ReadableByteStreamControllerClose(this);
  }

  /** Queues the bytes of `chunk`; its buffer is transferred (detached) and no longer usable by the caller. */
  enqueue(chunk: ArrayBufferView<ArrayBuffer>): void {
    if (!isReadableByteStreamController(this)) throw controllerBrandCheckError("enqueue");
    assertRequiredArgument(chunk, 1, "enqueue");
    assertArrayBufferView(chunk, "First parameter");
    if (chunk.byteLength === 0) throw new TypeError("Cannot enqueue a chunk: its byteLength is 0");
    if (chunk.buffer.byteLength === 0) throw new TypeError("Cannot enqueue a chunk: its buffer's byteLength is 0");
    if (this._closeRequested) throw new TypeError("Cannot enqueue a chunk: the stream is closing");
    const state = this._controlledReadableByteStream._state;
    if (state !== "readable") throw new TypeError(`Cannot enqueue a chunk: current state is ${state}`);
    ReadableByteStreamControllerEnqueue(this, chunk);
  }

  /** Errors the stream. */
  error(e: unknown = undefined): void {
    if (!isReadableByteStreamController(this)) throw controllerBrandCheckError("error");
    ReadableByteStreamControllerError(this, e);
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#rbs-controller-private-cancel | [[CancelSteps]]}. */
  [CancelSteps](reason: unknown): Promise<unknown> {
    ReadableByteStreamControllerClearPendingPullIntos(this);
    resetByteQueue(this);
    const result = (this._cancelAlgorithm as CancelAlgorithm)(reason);
    ReadableByteStreamControllerClearAlgorithms(this);
    return result;
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#rbs-controller-private-pull | [[PullSteps]]}. */
  [PullSteps](readRequest: ReadRequest<Uint8Array>): void {
    const stream = this._controlledReadableByteStream;
    if (this._queueTotalSize > 0) {
      ReadableByteStreamControllerFillReadRequestFromQueue(this, readRequest);
      return;
    }
    const autoAllocateChunkSize = this._autoAllocateChunkSize;
    if (autoAllocateChunkSize !== undefined) {
      let buffer: ArrayBuffer;
      try {
        buffer = new ArrayBuffer(autoAllocateChunkSize);
      } catch (error) {
        readRequest.errorSteps(error);
        return;
      }
      this._pendingPullIntos.push({
        buffer,
        bufferByteLength: autoAllocateChunkSize,
        byteOffset: 0,
        byteLength: autoAllocateChunkSize,
        bytesFilled: 0,
        minimumFill: 1,
        elementSize: 1,
        viewConstructor: Uint8Array,
        readerType: "default",
        bufferExposed: false,
        bufferView: undefined,
      });
    }
    ReadableStreamAddReadRequest(stream, readRequest);
    ReadableByteStreamControllerCallPullIfNeeded(this);
  }

  /** @internal Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontroller-releasesteps | [[ReleaseSteps]]}. */
  [ReleaseSteps](): void {
    if (this._pendingPullIntos.length > 0) {
      const first = this._pendingPullIntos.peek();
      first.readerType = "none";
      this._pendingPullIntos = new SimpleQueue();
      this._pendingPullIntos.push(first);
    }
  }

  /** @internal Byte streams always take the full [[PullSteps]] path. */
  [tryDequeue](): typeof NO_CHUNK {
    return NO_CHUNK;
  }
}

makeEnumerable(ReadableByteStreamController, ["byobRequest", "desiredSize", "close", "enqueue", "error"]);
setToStringTag(ReadableByteStreamController, "ReadableByteStreamController");

function controllerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use ReadableByteStreamController.prototype.${name}: receiver is not a ReadableByteStreamController`,
  );
}

function resetByteQueue(controller: ReadableByteStreamController): void {
  controller._queue = new SimpleQueue();
  controller._queueTotalSize = 0;
}

/** Brand check for `ReadableByteStreamController`. */
export function isReadableByteStreamController(value: unknown): value is ReadableByteStreamController {
  return hasOwnSlot(value, "_controlledReadableByteStream");
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-call-pull-if-needed | ReadableByteStreamControllerCallPullIfNeeded}. */
export function ReadableByteStreamControllerCallPullIfNeeded(controller: ReadableByteStreamController): void {
  if (!ReadableByteStreamControllerShouldCallPull(controller)) return;
  if (controller._pulling) {
    controller._pullAgain = true;
    return;
  }
  controller._pulling = true;
  // As in ReadableStreamDefaultControllerCallPullIfNeeded: the source's pull called here, not through a closure
  // per stream, which JavaScriptCore recompiles this call site for.
  const underlyingPull = controller._underlyingPull;
  const pullCompletion =
    underlyingPull !== undefined
      ? callForCompletion(underlyingPull.fn, underlyingPull.source, controller)
      : (controller._pullAlgorithm as PullAlgorithm)();
  reactTo(pullCompletion, controller._onPullFulfilled, controller._onPullRejected);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-algorithms | ReadableByteStreamControllerClearAlgorithms}. */
export function ReadableByteStreamControllerClearAlgorithms(controller: ReadableByteStreamController): void {
  controller._pullAlgorithm = undefined;
  controller._underlyingPull = undefined;
  controller._cancelAlgorithm = undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-pending-pull-intos | ReadableByteStreamControllerClearPendingPullIntos}. */
export function ReadableByteStreamControllerClearPendingPullIntos(controller: ReadableByteStreamController): void {
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  controller._pendingPullIntos = new SimpleQueue();
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-close | ReadableByteStreamControllerClose}. */
export function ReadableByteStreamControllerClose(controller: ReadableByteStreamController): void {
  const stream = controller._controlledReadableByteStream;
  if (controller._closeRequested || stream._state !== "readable") return;
  if (controller._queueTotalSize > 0) {
    controller._closeRequested = true;
    return;
  }
  if (controller._pendingPullIntos.length > 0) {
    const first = controller._pendingPullIntos.peek();
    if (first.bytesFilled % first.elementSize !== 0) {
      const e = new TypeError("Cannot close the stream: a partial element is pending in the BYOB request");
      ReadableByteStreamControllerError(controller, e);
      throw e;
    }
  }
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamClose(stream);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-commit-pull-into-descriptor | ReadableByteStreamControllerCommitPullIntoDescriptor}. */
export function ReadableByteStreamControllerCommitPullIntoDescriptor(
  stream: ReadableStream<Uint8Array>,
  pullIntoDescriptor: PullIntoDescriptor,
): void {
  const done = stream._state === "closed";
  const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === "default") {
    ReadableStreamFulfillReadRequest(stream, filledView as Uint8Array<ArrayBuffer>, done);
  } else {
    ReadableStreamFulfillReadIntoRequest(stream, filledView, done);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-convert-pull-into-descriptor | ReadableByteStreamControllerConvertPullIntoDescriptor}. */
export function ReadableByteStreamControllerConvertPullIntoDescriptor(
  pullIntoDescriptor: PullIntoDescriptor,
): ArrayBufferViewLike {
  const { bytesFilled, elementSize } = pullIntoDescriptor;
  const buffer = pullIntoDescriptor.bufferExposed
    ? transferArrayBuffer(pullIntoDescriptor.buffer)
    : pullIntoDescriptor.buffer;
  return new pullIntoDescriptor.viewConstructor(buffer, pullIntoDescriptor.byteOffset, bytesFilled / elementSize);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue | ReadableByteStreamControllerEnqueue}. */
export function ReadableByteStreamControllerEnqueue(
  controller: ReadableByteStreamController,
  chunk: ArrayBufferViewLike,
): void {
  const stream = controller._controlledReadableByteStream;
  if (controller._closeRequested || stream._state !== "readable") return;
  const { buffer, byteOffset, byteLength } = chunk;
  if (isDetachedBuffer(buffer)) throw new TypeError("Cannot enqueue a chunk: its buffer is detached");
  const transferredBuffer = transferArrayBuffer(buffer);
  if (controller._pendingPullIntos.length > 0) {
    const first = controller._pendingPullIntos.peek();
    if (isDetachedBuffer(first.buffer)) {
      throw new TypeError("Cannot enqueue a chunk: the pending BYOB request's buffer is detached");
    }
    ReadableByteStreamControllerInvalidateBYOBRequest(controller);
    if (first.bufferExposed) {
      first.buffer = transferArrayBuffer(first.buffer);
      first.bufferExposed = false;
    }
    if (first.readerType === "none") {
      ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, first);
    }
  }
  if (ReadableStreamHasDefaultReader(stream)) {
    ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller);
    if (ReadableStreamGetNumReadRequests(stream) === 0) {
      ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    } else {
      if (controller._pendingPullIntos.length > 0) {
        ReadableByteStreamControllerShiftPendingPullInto(controller);
      }
      const transferredView = new Uint8Array(transferredBuffer, byteOffset, byteLength);
      ReadableStreamFulfillReadRequest(stream, transferredView, false);
    }
  } else if (ReadableStreamHasBYOBReader(stream)) {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const filledPullInto of filledPullIntos) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
    }
  } else {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue-chunk-to-queue | ReadableByteStreamControllerEnqueueChunkToQueue}. */
export function ReadableByteStreamControllerEnqueueChunkToQueue(
  controller: ReadableByteStreamController,
  buffer: ArrayBuffer,
  byteOffset: number,
  byteLength: number,
): void {
  controller._queue.push({ buffer, byteOffset, byteLength });
  controller._queueTotalSize += byteLength;
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueueclonedchunktoqueue | ReadableByteStreamControllerEnqueueClonedChunkToQueue}. */
export function ReadableByteStreamControllerEnqueueClonedChunkToQueue(
  controller: ReadableByteStreamController,
  buffer: ArrayBuffer,
  byteOffset: number,
  byteLength: number,
): void {
  let clone: ArrayBuffer;
  try {
    clone = arrayBufferSlice(buffer, byteOffset, byteOffset + byteLength);
  } catch (error) {
    ReadableByteStreamControllerError(controller, error);
    throw error;
  }
  ReadableByteStreamControllerEnqueueChunkToQueue(controller, clone, 0, byteLength);
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueuedetachedpullintotoqueue | ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue}. */
export function ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(
  controller: ReadableByteStreamController,
  pullIntoDescriptor: PullIntoDescriptor,
): void {
  if (pullIntoDescriptor.bytesFilled > 0) {
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(
      controller,
      pullIntoDescriptor.buffer,
      pullIntoDescriptor.byteOffset,
      pullIntoDescriptor.bytesFilled,
    );
  }
  ReadableByteStreamControllerShiftPendingPullInto(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-error | ReadableByteStreamControllerError}. */
export function ReadableByteStreamControllerError(controller: ReadableByteStreamController, e: unknown): void {
  const stream = controller._controlledReadableByteStream;
  if (stream._state !== "readable") return;
  ReadableByteStreamControllerClearPendingPullIntos(controller);
  resetByteQueue(controller);
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-head-pull-into-descriptor | ReadableByteStreamControllerFillHeadPullIntoDescriptor}. */
export function ReadableByteStreamControllerFillHeadPullIntoDescriptor(
  _controller: ReadableByteStreamController,
  size: number,
  pullIntoDescriptor: PullIntoDescriptor,
): void {
  pullIntoDescriptor.bytesFilled += size;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-pull-into-descriptor-from-queue | ReadableByteStreamControllerFillPullIntoDescriptorFromQueue}. */
export function ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(
  controller: ReadableByteStreamController,
  pullIntoDescriptor: PullIntoDescriptor,
): boolean {
  const maxBytesToCopy = Math.min(
    controller._queueTotalSize,
    pullIntoDescriptor.byteLength - pullIntoDescriptor.bytesFilled,
  );
  const maxBytesFilled = pullIntoDescriptor.bytesFilled + maxBytesToCopy;
  let totalBytesToCopyRemaining = maxBytesToCopy;
  let ready = false;
  const remainderBytes = maxBytesFilled % pullIntoDescriptor.elementSize;
  const maxAlignedBytes = maxBytesFilled - remainderBytes;
  if (maxAlignedBytes >= pullIntoDescriptor.minimumFill) {
    totalBytesToCopyRemaining = maxAlignedBytes - pullIntoDescriptor.bytesFilled;
    ready = true;
  }
  const queue = controller._queue;
  while (totalBytesToCopyRemaining > 0) {
    const headOfQueue = queue.peek();
    const bytesToCopy = Math.min(totalBytesToCopyRemaining, headOfQueue.byteLength);
    const destStart = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    if (
      !canCopyDataBlockBytes(
        pullIntoDescriptor.buffer,
        destStart,
        headOfQueue.buffer,
        headOfQueue.byteOffset,
        bytesToCopy,
      )
    ) {
      throw new TypeError("Cannot copy queued bytes into the pending read: a buffer is detached or too small");
    }
    copyIntoDescriptor(pullIntoDescriptor, destStart, headOfQueue.buffer, headOfQueue.byteOffset, bytesToCopy);
    if (headOfQueue.byteLength === bytesToCopy) {
      queue.shift();
    } else {
      headOfQueue.byteOffset += bytesToCopy;
      headOfQueue.byteLength -= bytesToCopy;
    }
    controller._queueTotalSize -= bytesToCopy;
    ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesToCopy, pullIntoDescriptor);
    totalBytesToCopyRemaining -= bytesToCopy;
  }
  return ready;
}

/**
 * CopyDataBlockBytes into `descriptor`'s buffer at `destStart`, through the descriptor's view of its buffer (made
 * here when it has none, or one of a buffer it no longer has).
 */
function copyIntoDescriptor(
  descriptor: PullIntoDescriptor,
  destStart: number,
  source: ArrayBuffer,
  sourceOffset: number,
  count: number,
): void {
  const buffer = descriptor.buffer;
  let view = descriptor.bufferView;
  if (view === undefined || view.buffer !== buffer) {
    view = new Uint8Array(buffer);
    descriptor.bufferView = view;
  }
  view.set(new Uint8Array(source, sourceOffset, count), destStart);
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerfillreadrequestfromqueue | ReadableByteStreamControllerFillReadRequestFromQueue}. */
export function ReadableByteStreamControllerFillReadRequestFromQueue(
  controller: ReadableByteStreamController,
  readRequest: ReadRequest<Uint8Array>,
): void {
  const entry = controller._queue.shift();
  controller._queueTotalSize -= entry.byteLength;
  ReadableByteStreamControllerHandleQueueDrain(controller);
  const view = new Uint8Array(entry.buffer, entry.byteOffset, entry.byteLength);
  readRequest.chunkSteps(view);
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollergetbyobrequest | ReadableByteStreamControllerGetBYOBRequest}. */
export function ReadableByteStreamControllerGetBYOBRequest(
  controller: ReadableByteStreamController,
): ReadableStreamBYOBRequest | null {
  if (controller._byobRequest === null && controller._pendingPullIntos.length > 0) {
    const first = controller._pendingPullIntos.peek();
    const view = new Uint8Array(
      first.buffer,
      first.byteOffset + first.bytesFilled,
      first.byteLength - first.bytesFilled,
    );
    first.bufferExposed = true;
    const byobRequest = Object.create(ReadableStreamBYOBRequest.prototype) as ReadableStreamBYOBRequest;
    byobRequest._associatedReadableByteStreamController = controller;
    byobRequest._view = view;
    controller._byobRequest = byobRequest;
  }
  return controller._byobRequest;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-get-desired-size | ReadableByteStreamControllerGetDesiredSize}. */
export function ReadableByteStreamControllerGetDesiredSize(controller: ReadableByteStreamController): number | null {
  const state = controller._controlledReadableByteStream._state;
  if (state === "errored") return null;
  if (state === "closed") return 0;
  return controller._strategyHWM - controller._queueTotalSize;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-handle-queue-drain | ReadableByteStreamControllerHandleQueueDrain}. */
export function ReadableByteStreamControllerHandleQueueDrain(controller: ReadableByteStreamController): void {
  if (controller._queueTotalSize === 0 && controller._closeRequested) {
    ReadableByteStreamControllerClearAlgorithms(controller);
    ReadableStreamClose(controller._controlledReadableByteStream);
  } else {
    ReadableByteStreamControllerCallPullIfNeeded(controller);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-invalidate-byob-request | ReadableByteStreamControllerInvalidateBYOBRequest}. */
export function ReadableByteStreamControllerInvalidateBYOBRequest(controller: ReadableByteStreamController): void {
  const request = controller._byobRequest;
  if (request === null) return;
  request._associatedReadableByteStreamController = undefined;
  request._view = null;
  controller._byobRequest = null;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-process-pull-into-descriptors-using-queue | ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue}. */
export function ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(
  controller: ReadableByteStreamController,
): PullIntoDescriptor[] {
  const filledPullIntos: PullIntoDescriptor[] = [];
  while (controller._pendingPullIntos.length > 0) {
    if (controller._queueTotalSize === 0) break;
    const pullIntoDescriptor = controller._pendingPullIntos.peek();
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      ReadableByteStreamControllerShiftPendingPullInto(controller);
      filledPullIntos.push(pullIntoDescriptor);
    }
  }
  return filledPullIntos;
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerprocessreadrequestsusingqueue | ReadableByteStreamControllerProcessReadRequestsUsingQueue}. */
export function ReadableByteStreamControllerProcessReadRequestsUsingQueue(
  controller: ReadableByteStreamController,
): void {
  const stream = controller._controlledReadableByteStream;
  const reader = stream._reader as { _readRequests: SimpleQueue<ReadRequest<Uint8Array>> };
  while (reader._readRequests.length > 0) {
    if (controller._queueTotalSize === 0) return;
    const readRequest = reader._readRequests.shift();
    ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-pull-into | ReadableByteStreamControllerPullInto}. */
export function ReadableByteStreamControllerPullInto(
  controller: ReadableByteStreamController,
  view: ArrayBufferViewLike,
  min: number,
  readIntoRequest: ReadIntoRequest,
): void {
  const stream = controller._controlledReadableByteStream;
  const elementSize = elementSizeOf(view);
  const ctor = viewConstructorOf(view);
  const minimumFill = min * elementSize;
  const { byteOffset, byteLength } = view;
  let buffer: ArrayBuffer;
  try {
    buffer = transferArrayBuffer(view.buffer);
  } catch (error) {
    readIntoRequest.errorSteps(error);
    return;
  }
  const pullIntoDescriptor: PullIntoDescriptor = {
    buffer,
    bufferByteLength: buffer.byteLength,
    byteOffset,
    byteLength,
    bytesFilled: 0,
    minimumFill,
    elementSize,
    viewConstructor: ctor,
    readerType: "byob",
    bufferExposed: false,
    bufferView: undefined,
  };
  if (controller._pendingPullIntos.length > 0) {
    controller._pendingPullIntos.push(pullIntoDescriptor);
    ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
    return;
  }
  if (stream._state === "closed") {
    const emptyView = new ctor(pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, 0);
    readIntoRequest.closeSteps(emptyView);
    return;
  }
  if (controller._queueTotalSize > 0) {
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
      ReadableByteStreamControllerHandleQueueDrain(controller);
      readIntoRequest.chunkSteps(filledView);
      return;
    }
    if (controller._closeRequested) {
      const e = new TypeError("Cannot read: the stream closed with fewer bytes than the minimum requested");
      ReadableByteStreamControllerError(controller, e);
      readIntoRequest.errorSteps(e);
      return;
    }
  }
  controller._pendingPullIntos.push(pullIntoDescriptor);
  ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond | ReadableByteStreamControllerRespond}. */
export function ReadableByteStreamControllerRespond(
  controller: ReadableByteStreamController,
  bytesWritten: number,
): void {
  const first = controller._pendingPullIntos.peek();
  const state = controller._controlledReadableByteStream._state;
  if (state === "closed") {
    if (bytesWritten !== 0) {
      throw new TypeError("Cannot respond: bytesWritten must be 0 after the stream has closed");
    }
  } else {
    if (bytesWritten === 0) throw new TypeError("Cannot respond: bytesWritten must be greater than 0");
    if (first.bytesFilled + bytesWritten > first.byteLength) {
      throw new RangeError("Cannot respond: bytesWritten is larger than the view");
    }
  }
  first.buffer = transferArrayBuffer(first.buffer);
  first.bufferExposed = false;
  ReadableByteStreamControllerRespondInternal(controller, bytesWritten);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-closed-state | ReadableByteStreamControllerRespondInClosedState}. */
export function ReadableByteStreamControllerRespondInClosedState(
  controller: ReadableByteStreamController,
  firstDescriptor: PullIntoDescriptor,
): void {
  if (firstDescriptor.readerType === "none") ReadableByteStreamControllerShiftPendingPullInto(controller);
  const stream = controller._controlledReadableByteStream;
  if (ReadableStreamHasBYOBReader(stream)) {
    const filledPullIntos: PullIntoDescriptor[] = [];
    while (filledPullIntos.length < ReadableStreamGetNumReadIntoRequests(stream)) {
      filledPullIntos.push(ReadableByteStreamControllerShiftPendingPullInto(controller));
    }
    for (const filledPullInto of filledPullIntos) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
    }
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-readable-state | ReadableByteStreamControllerRespondInReadableState}. */
export function ReadableByteStreamControllerRespondInReadableState(
  controller: ReadableByteStreamController,
  bytesWritten: number,
  pullIntoDescriptor: PullIntoDescriptor,
): void {
  ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesWritten, pullIntoDescriptor);
  const stream = controller._controlledReadableByteStream;
  if (pullIntoDescriptor.readerType === "none") {
    ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const filledPullInto of filledPullIntos) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
    }
    return;
  }
  if (pullIntoDescriptor.bytesFilled < pullIntoDescriptor.minimumFill) return;
  ReadableByteStreamControllerShiftPendingPullInto(controller);
  const remainderSize = pullIntoDescriptor.bytesFilled % pullIntoDescriptor.elementSize;
  if (remainderSize > 0) {
    const end = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(
      controller,
      pullIntoDescriptor.buffer,
      end - remainderSize,
      remainderSize,
    );
  }
  pullIntoDescriptor.bytesFilled -= remainderSize;
  const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
  ReadableByteStreamControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor);
  for (const filledPullInto of filledPullIntos) {
    ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-internal | ReadableByteStreamControllerRespondInternal}. */
export function ReadableByteStreamControllerRespondInternal(
  controller: ReadableByteStreamController,
  bytesWritten: number,
): void {
  const first = controller._pendingPullIntos.peek();
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  const state = controller._controlledReadableByteStream._state;
  if (state === "closed") {
    ReadableByteStreamControllerRespondInClosedState(controller, first);
  } else {
    ReadableByteStreamControllerRespondInReadableState(controller, bytesWritten, first);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-with-new-view | ReadableByteStreamControllerRespondWithNewView}. */
export function ReadableByteStreamControllerRespondWithNewView(
  controller: ReadableByteStreamController,
  view: ArrayBufferViewLike,
): void {
  const first = controller._pendingPullIntos.peek();
  const state = controller._controlledReadableByteStream._state;
  if (state === "closed") {
    if (view.byteLength !== 0) {
      throw new TypeError("Cannot respond with a new view: its byteLength must be 0 after the stream has closed");
    }
  } else if (view.byteLength === 0) {
    throw new TypeError("Cannot respond with a new view: its byteLength must be greater than 0");
  }
  if (first.byteOffset + first.bytesFilled !== view.byteOffset) {
    throw new RangeError("Cannot respond with a new view: its byteOffset does not match the request's");
  }
  if (first.bufferByteLength !== view.buffer.byteLength) {
    throw new RangeError("Cannot respond with a new view: its buffer's byteLength does not match the request's");
  }
  if (first.bytesFilled + view.byteLength > first.byteLength) {
    throw new RangeError("Cannot respond with a new view: it is larger than the request's view");
  }
  const viewByteLength = view.byteLength;
  first.buffer = transferArrayBuffer(view.buffer);
  first.bufferExposed = false;
  ReadableByteStreamControllerRespondInternal(controller, viewByteLength);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-shift-pending-pull-into | ReadableByteStreamControllerShiftPendingPullInto}. */
export function ReadableByteStreamControllerShiftPendingPullInto(
  controller: ReadableByteStreamController,
): PullIntoDescriptor {
  return controller._pendingPullIntos.shift();
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-byte-stream-controller-should-call-pull | ReadableByteStreamControllerShouldCallPull}. */
export function ReadableByteStreamControllerShouldCallPull(controller: ReadableByteStreamController): boolean {
  const stream = controller._controlledReadableByteStream;
  if (stream._state !== "readable") return false;
  if (controller._closeRequested) return false;
  if (!controller._started) return false;
  if (ReadableStreamHasDefaultReader(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  if (ReadableStreamHasBYOBReader(stream) && ReadableStreamGetNumReadIntoRequests(stream) > 0) return true;
  return (ReadableByteStreamControllerGetDesiredSize(controller) as number) > 0;
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller | SetUpReadableByteStreamController}. */
export function SetUpReadableByteStreamController(
  stream: ReadableStream<Uint8Array>,
  controller: ReadableByteStreamController,
  startAlgorithm: StartAlgorithm,
  pullAlgorithm: PullAlgorithm,
  cancelAlgorithm: CancelAlgorithm,
  highWaterMark: number,
  autoAllocateChunkSize: number | undefined,
  underlyingPull: UnderlyingBytePull | undefined = undefined,
): void {
  controller._controlledReadableByteStream = stream;
  controller._pullAgain = false;
  controller._pulling = false;
  controller._byobRequest = null;
  controller._queue = new SimpleQueue();
  controller._queueTotalSize = 0;
  controller._closeRequested = false;
  controller._started = false;
  controller._strategyHWM = highWaterMark;
  controller._pullAlgorithm = pullAlgorithm;
  controller._cancelAlgorithm = cancelAlgorithm;
  controller._autoAllocateChunkSize = autoAllocateChunkSize;
  controller._pendingPullIntos = new SimpleQueue();
  controller._underlyingPull = underlyingPull;
  controller._onPullFulfilled = () => {
    controller._pulling = false;
    if (controller._pullAgain) {
      controller._pullAgain = false;
      ReadableByteStreamControllerCallPullIfNeeded(controller);
    }
  };
  controller._onPullRejected = (e) => {
    ReadableByteStreamControllerError(controller, e);
  };
  stream._readableStreamController = controller;
  const startResult = startAlgorithm();
  uponPromise(
    promiseResolvedWith(startResult),
    () => {
      controller._started = true;
      ReadableByteStreamControllerCallPullIfNeeded(controller);
    },
    (r) => {
      ReadableByteStreamControllerError(controller, r);
    },
  );
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller-from-underlying-source | SetUpReadableByteStreamControllerFromUnderlyingSource}. */
export function SetUpReadableByteStreamControllerFromUnderlyingSource(
  stream: ReadableStream<Uint8Array>,
  underlyingSource: unknown,
  underlyingSourceDict: ConvertedUnderlyingSource,
  highWaterMark: number,
): void {
  const controller = Object.create(ReadableByteStreamController.prototype) as ReadableByteStreamController;
  const { start, pull, cancel, autoAllocateChunkSize } = underlyingSourceDict;
  const startAlgorithm: StartAlgorithm =
    start === undefined ? () => undefined : () => Reflect.apply(start, underlyingSource, [controller]);
  const pullAlgorithm: PullAlgorithm =
    pull === undefined ? () => undefined : () => callForCompletion(pull, underlyingSource, controller as never);
  const cancelAlgorithm: CancelAlgorithm =
    cancel === undefined ? () => resolvedUndefined : (reason) => promiseCall(cancel, underlyingSource, reason as never);
  if (autoAllocateChunkSize === 0) {
    throw new TypeError("Cannot construct a byte stream: autoAllocateChunkSize must be greater than 0");
  }
  SetUpReadableByteStreamController(
    stream,
    controller,
    startAlgorithm,
    pullAlgorithm,
    cancelAlgorithm,
    highWaterMark,
    autoAllocateChunkSize,
    pull === undefined
      ? undefined
      : { fn: pull as (controller: ReadableByteStreamController) => unknown, source: underlyingSource },
  );
}
