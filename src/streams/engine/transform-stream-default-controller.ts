/**
 * `TransformStreamDefaultController` and its abstract operations (WHATWG Streams §6.3 and §6.4.2).
 * @module
 */

import { debugAssert } from "../base/assert.ts";
import { type Completion, callWithChunkForCompletion, completionToPromise } from "../base/completion.ts";
import {
  type Deferred,
  promiseCall,
  promiseRejectedWith,
  reactionToResolved,
  resolvedUndefined,
  transformPromiseWith,
} from "../base/promise-helpers.ts";
import { createBrand, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { appendOnlyHolds, readableStreamDefaultControllerAppendUnit } from "./fast-paths/append-unit.ts";
import { isWritableSidePiped } from "./fast-paths/piped-writes.ts";
import { holdFusedChunk, releaseFusedRead } from "./fused/fused-hop.ts";
import {
  ReadableStreamDefaultControllerCallPullIfNeeded,
  ReadableStreamDefaultControllerCanCloseOrEnqueue,
  ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerEnqueue,
  ReadableStreamDefaultControllerGetDesiredSize,
  ReadableStreamDefaultControllerHasBackpressure,
} from "./readable-stream-default-controller.ts";
import {
  readableController,
  type TransformStream,
  TransformStreamError,
  TransformStreamErrorWritableAndUnblockWrite,
  TransformStreamSetBackpressure,
} from "./transform-stream.ts";
import type { ConvertedTransformer } from "./transformer.ts";

/** Transforms one chunk; returns its completion (`undefined` when it finished synchronously). */
export type TransformAlgorithm<I> = (chunk: I) => Completion;

/**
 * Lets a transformer enqueue output, error the stream, or terminate it.
 * Instances are created by the stream; the constructor throws.
 * @example
 * ```ts
 * new TransformStream({ transform(chunk, controller) { controller.enqueue(String(chunk)); } });
 * ```
 */
export class TransformStreamDefaultController<O = unknown> {
  /** @internal [[cancelAlgorithm]] */
  declare _cancelAlgorithm: ((reason: unknown) => Promise<unknown>) | undefined;
  /** @internal [[finishPromise]] */
  declare _finishPromise: Deferred<undefined> | undefined;
  /** @internal [[flushAlgorithm]] */
  declare _flushAlgorithm: (() => Promise<unknown>) | undefined;
  /** @internal [[stream]] */
  declare _controlledTransformStream: TransformStream<unknown, O>;
  /** @internal [[transformAlgorithm]] */
  declare _transformAlgorithm: TransformAlgorithm<unknown> | undefined;
  /** @internal Rejection reaction of PerformTransform, allocated once per controller. */
  declare _onTransformRejected: (reason: unknown) => never;

  constructor() {
    throw new TypeError(
      "Illegal constructor: TransformStreamDefaultController instances are created by TransformStream",
    );
  }

  /** The readable side's desired size. */
  get desiredSize(): number | null {
    if (!isTransformStreamDefaultController(this)) throw controllerBrandCheckError("desiredSize");
    return ReadableStreamDefaultControllerGetDesiredSize(readableController(this._controlledTransformStream));
  }

  /** Enqueues a chunk on the readable side. */
  enqueue(chunk: O = undefined as O): void {
    if (!isTransformStreamDefaultController(this)) throw controllerBrandCheckError("enqueue");
    TransformStreamDefaultControllerEnqueue(this, chunk);
  }

  /** Errors both sides. */
  error(reason: unknown = undefined): void {
    if (!isTransformStreamDefaultController(this)) throw controllerBrandCheckError("error");
    TransformStreamDefaultControllerError(this, reason);
  }

  /** Closes the readable side and errors the writable side. */
  terminate(): void {
    if (!isTransformStreamDefaultController(this)) throw controllerBrandCheckError("terminate");
    TransformStreamDefaultControllerTerminate(this);
  }
}

makeEnumerable(TransformStreamDefaultController, ["desiredSize", "enqueue", "error", "terminate"]);
setToStringTag(TransformStreamDefaultController, "TransformStreamDefaultController");

function controllerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use TransformStreamDefaultController.prototype.${name}: receiver is not a TransformStreamDefaultController`,
  );
}

/** Marks the controllers set up by {@link SetUpTransformStreamDefaultController} (a per-chunk check in `enqueue`). */
const controllerBrand = createBrand();

/** Brand check for `TransformStreamDefaultController`. */
export function isTransformStreamDefaultController(value: unknown): value is TransformStreamDefaultController<unknown> {
  return controllerBrand.has(value);
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller | SetUpTransformStreamDefaultController}. */
export function SetUpTransformStreamDefaultController<I, O>(
  stream: TransformStream<I, O>,
  controller: TransformStreamDefaultController<O>,
  transformAlgorithm: TransformAlgorithm<I>,
  flushAlgorithm: () => Promise<unknown>,
  cancelAlgorithm: (reason: unknown) => Promise<unknown>,
): void {
  controllerBrand.stamp(controller);
  controller._controlledTransformStream = stream as TransformStream<unknown, O>;
  stream._transformStreamController = controller;
  controller._transformAlgorithm = transformAlgorithm as TransformAlgorithm<unknown>;
  controller._flushAlgorithm = flushAlgorithm;
  controller._cancelAlgorithm = cancelAlgorithm;
  controller._finishPromise = undefined;
  controller._onTransformRejected = (r) => {
    TransformStreamError(stream, r);
    throw r;
  };
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller-from-transformer | SetUpTransformStreamDefaultControllerFromTransformer}. */
export function SetUpTransformStreamDefaultControllerFromTransformer<I, O>(
  stream: TransformStream<I, O>,
  transformer: unknown,
  transformerDict: ConvertedTransformer,
): void {
  const controller = Object.create(TransformStreamDefaultController.prototype) as TransformStreamDefaultController<O>;
  const { transform, flush, cancel } = transformerDict;
  const transformAlgorithm: TransformAlgorithm<I> =
    transform === undefined
      ? (chunk) => {
          try {
            TransformStreamDefaultControllerEnqueue(controller, chunk as unknown as O);
            return undefined;
          } catch (error) {
            return promiseRejectedWith(error);
          }
        }
      : (chunk) => callWithChunkForCompletion(transform, transformer, chunk, controller);
  const flushAlgorithm =
    flush === undefined ? () => resolvedUndefined : () => promiseCall(flush, transformer, controller as never);
  const cancelAlgorithm =
    cancel === undefined
      ? () => resolvedUndefined
      : (reason: unknown) => promiseCall(cancel, transformer, reason as never);
  SetUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-controller-clear-algorithms | TransformStreamDefaultControllerClearAlgorithms}. */
export function TransformStreamDefaultControllerClearAlgorithms<O>(
  controller: TransformStreamDefaultController<O>,
): void {
  controller._transformAlgorithm = undefined;
  controller._flushAlgorithm = undefined;
  controller._cancelAlgorithm = undefined;
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue | TransformStreamDefaultControllerEnqueue}.
 * The common case (a chunk appended to the readable side's queue with no pull due, see
 * {@link readableStreamDefaultControllerAppendUnit}) skips the steps that are then known to do nothing: pulling, and
 * recomputing backpressure, which is known to be present. Kept small so that engines inline it into a transformer's
 * loop; {@link enqueueInFull} does the rest. The flags are compared with `true` rather than tested for truthiness:
 * [[backpressure]] starts out undefined, so an engine cannot assume a boolean there and would run a full truthiness
 * test on every chunk.
 */
export function TransformStreamDefaultControllerEnqueue<O>(
  controller: TransformStreamDefaultController<O>,
  chunk: O,
): void {
  const stream = controller._controlledTransformStream;
  if (stream._fusedHop?.reader !== undefined && holdFusedChunk(stream, chunk)) return;
  const readableSide = readableController(stream);
  if (readableSide._appendOnly === true && stream._backpressure === true) {
    DEBUG: debugAssert(appendOnlyHolds(readableSide), "_appendOnly is set, but an enqueue is more than an append");
    readableSide._queue.enqueueUnit(chunk);
    return;
  }
  const pullDue = readableStreamDefaultControllerAppendUnit(readableSide, chunk);
  if (pullDue === false) {
    if (!stream._backpressure) TransformStreamSetBackpressure(stream, true);
    return;
  }
  enqueueInFull(stream, chunk, pullDue);
}

/**
 * The steps of TransformStreamDefaultControllerEnqueue after the common case did not apply (`appended` is
 * `undefined`: nothing was done yet) or appended the chunk with a pull due (`appended` is `true`).
 */
function enqueueInFull<O>(stream: TransformStream<unknown, O>, chunk: O, appended: true | undefined): void {
  const readableSide = readableController(stream);
  if (appended === undefined) {
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(readableSide)) {
      throw new TypeError("Cannot enqueue: the readable side is closing, closed or errored");
    }
    try {
      ReadableStreamDefaultControllerEnqueue(readableSide, chunk);
    } catch (e) {
      TransformStreamErrorWritableAndUnblockWrite(stream, e);
      throw stream._readable._storedError;
    }
  } else {
    ReadableStreamDefaultControllerCallPullIfNeeded(readableSide);
  }
  const backpressure = ReadableStreamDefaultControllerHasBackpressure(readableSide);
  if (backpressure !== stream._backpressure) TransformStreamSetBackpressure(stream, true);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-controller-error | TransformStreamDefaultControllerError}. */
export function TransformStreamDefaultControllerError<O>(
  controller: TransformStreamDefaultController<O>,
  e: unknown,
): void {
  TransformStreamError(controller._controlledTransformStream, e);
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-controller-perform-transform | TransformStreamDefaultControllerPerformTransform}.
 * A transform that completed synchronously cannot reject; while a pipe writes into the writable side (nobody can
 * observe when its writes settle) its `undefined` completion is passed through as is. Otherwise the result settles when
 * the standard's reaction to the transform promise would.
 */
export function TransformStreamDefaultControllerPerformTransform<I, O>(
  controller: TransformStreamDefaultController<O>,
  chunk: I,
): Completion {
  const transformAlgorithm = controller._transformAlgorithm;
  // A write the writable side let through before it learnt that the readable side was cancelled (the standard
  // asserts this cannot happen; it can, see whatwg/streams#1341): the chunk has nowhere to go and is dropped.
  const transformCompletion = transformAlgorithm === undefined ? undefined : transformAlgorithm(chunk);
  if (transformCompletion === undefined) {
    if (isWritableSidePiped(controller._controlledTransformStream)) return undefined;
    // The reaction to a promise already fulfilled with undefined, which cannot reject: one promise, not two.
    return reactionToResolved();
  }
  return transformPromiseWith(completionToPromise(transformCompletion), undefined, controller._onTransformRejected);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-controller-terminate | TransformStreamDefaultControllerTerminate}. */
export function TransformStreamDefaultControllerTerminate<O>(controller: TransformStreamDefaultController<O>): void {
  const stream = controller._controlledTransformStream;
  if (stream._fusedHop !== undefined) releaseFusedRead(stream);
  ReadableStreamDefaultControllerClose(readableController(stream));
  const error = new TypeError("Cannot write: the TransformStream has been terminated");
  TransformStreamErrorWritableAndUnblockWrite(stream, error);
}
