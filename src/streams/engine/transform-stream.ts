/**
 * `TransformStream` and the abstract operations that work on transform streams (WHATWG Streams §6.4).
 * @module
 */

import { type Completion, LazyDeferred } from "../base/completion.ts";
import { Deferred, resolvedUndefined, uponPromise } from "../base/promise-helpers.ts";
import {
  convertQueuingStrategy,
  extractHighWaterMark,
  extractSizeAlgorithm,
  type QueuingStrategy,
  type SizeAlgorithm,
} from "../standard/queuing-strategy.ts";
import { hasOwnSlot, isObject, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { isWritableSidePiped } from "./fast-paths/piped-writes.ts";
import {
  type FusedHop,
  materializeFusedWrite,
  registerTransformStream,
  releaseFusedRead,
  resumesForFusedRead,
  transformParkedWrite,
} from "./fused/fused-hop.ts";
import { CreateReadableStream, type ReadableStream } from "./readable-stream.ts";
import {
  type ReadableStreamDefaultController,
  ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerError,
} from "./readable-stream-default-controller.ts";
import {
  SetUpTransformStreamDefaultControllerFromTransformer,
  type TransformStreamDefaultController,
  TransformStreamDefaultControllerClearAlgorithms,
  TransformStreamDefaultControllerPerformTransform,
} from "./transform-stream-default-controller.ts";
import { convertTransformer, type Transformer } from "./transformer.ts";
import { CreateWritableStream, type WritableStream } from "./writable-stream.ts";
import { WritableStreamDefaultControllerErrorIfNeeded } from "./writable-stream-default-controller.ts";

/**
 * A writable side and a readable side joined by a transformer: chunks written are transformed and read.
 * @example
 * ```ts
 * const double = new TransformStream<number, number>({
 *   transform(n, controller) { controller.enqueue(n * 2); },
 * });
 * ReadableStream.from([1, 2, 3]).pipeThrough(double);
 * ```
 */
export class TransformStream<I = unknown, O = unknown> {
  /** @internal [[backpressure]] */
  declare _backpressure: boolean | undefined;
  /** @internal [[backpressureChangePromise]] */
  declare _backpressureChangePromise: LazyDeferred<undefined> | undefined;
  /** @internal [[controller]] */
  declare _transformStreamController: TransformStreamDefaultController<O>;
  /** @internal [[readable]] */
  declare _readable: ReadableStream<O>;
  /** @internal [[writable]] */
  declare _writable: WritableStream<I>;
  /**
   * @internal The chunk of the write waiting for backpressure to lift, and the completion handed to the writable
   * side for it. The writable side has one write in flight at a time, so there is at most one.
   */
  declare _parkedChunk: I | undefined;
  /** @internal See {@link TransformStream._parkedChunk}. */
  declare _parkedWrite: LazyDeferred<undefined> | undefined;
  /** @internal The steps once backpressure lifted for the parked write, created once per stream. */
  declare _afterBackpressure: () => void;
  /** @internal The state of pipes fused through this stream (see `fused/fused-hop.ts`), once they have been. */
  declare _fusedHop: FusedHop<I, O> | undefined;

  constructor(
    transformer: Transformer<I, O> | null | undefined = undefined,
    writableStrategy: QueuingStrategy<I> | undefined = undefined,
    readableStrategy: QueuingStrategy<O> | undefined = undefined,
  ) {
    if (transformer !== undefined && !isObject(transformer)) {
      throw new TypeError("Cannot construct TransformStream: first parameter is not an object");
    }
    const writableStrategyDict = convertQueuingStrategy<I>(writableStrategy, "Second parameter");
    const readableStrategyDict = convertQueuingStrategy<O>(readableStrategy, "Third parameter");
    const source = transformer === undefined ? null : transformer;
    const transformerDict = convertTransformer(source, "First parameter");
    if (transformerDict.readableType !== undefined) {
      throw new RangeError("Cannot construct TransformStream: readableType must be undefined");
    }
    if (transformerDict.writableType !== undefined) {
      throw new RangeError("Cannot construct TransformStream: writableType must be undefined");
    }
    const readableHighWaterMark = extractHighWaterMark(readableStrategyDict, 0);
    const readableSizeAlgorithm = extractSizeAlgorithm(readableStrategyDict);
    const writableHighWaterMark = extractHighWaterMark(writableStrategyDict, 1);
    const writableSizeAlgorithm = extractSizeAlgorithm(writableStrategyDict);
    const startPromise = new Deferred<unknown>();
    InitializeTransformStream(
      this,
      startPromise.promise,
      writableHighWaterMark,
      writableSizeAlgorithm,
      readableHighWaterMark,
      readableSizeAlgorithm,
    );
    SetUpTransformStreamDefaultControllerFromTransformer(this, source, transformerDict);
    const start = transformerDict.start;
    if (start !== undefined) {
      startPromise.resolve(Reflect.apply(start, source, [this._transformStreamController]));
    } else {
      startPromise.resolve(undefined);
    }
  }

  /** The readable side. */
  get readable(): ReadableStream<O> {
    if (!isTransformStream(this)) throw streamBrandCheckError("readable");
    return this._readable as ReadableStream<O>;
  }

  /** The writable side. */
  get writable(): WritableStream<I> {
    if (!isTransformStream(this)) throw streamBrandCheckError("writable");
    return this._writable as WritableStream<I>;
  }
}

makeEnumerable(TransformStream, ["readable", "writable"]);
setToStringTag(TransformStream, "TransformStream");

function streamBrandCheckError(name: string): TypeError {
  return new TypeError(`Cannot use TransformStream.prototype.${name}: receiver is not a TransformStream`);
}

/** Brand check for `TransformStream`. */
export function isTransformStream(value: unknown): value is TransformStream<unknown, unknown> {
  return hasOwnSlot(value, "_transformStreamController");
}

/** Implements {@link https://streams.spec.whatwg.org/#initialize-transform-stream | InitializeTransformStream}. */
export function InitializeTransformStream<I, O>(
  stream: TransformStream<I, O>,
  startPromise: Promise<unknown>,
  writableHighWaterMark: number,
  writableSizeAlgorithm: SizeAlgorithm<I>,
  readableHighWaterMark: number,
  readableSizeAlgorithm: SizeAlgorithm<O>,
): void {
  const startAlgorithm = (): Promise<unknown> => startPromise;
  stream._writable = CreateWritableStream<I>(
    startAlgorithm,
    (chunk) => TransformStreamDefaultSinkWriteAlgorithm(stream, chunk),
    () => TransformStreamDefaultSinkCloseAlgorithm(stream),
    (reason) => TransformStreamDefaultSinkAbortAlgorithm(stream, reason),
    writableHighWaterMark,
    writableSizeAlgorithm,
  );
  stream._readable = CreateReadableStream<O>(
    startAlgorithm,
    () => TransformStreamDefaultSourcePullAlgorithm(stream),
    (reason) => TransformStreamDefaultSourceCancelAlgorithm(stream, reason),
    readableHighWaterMark,
    readableSizeAlgorithm,
  );
  stream._backpressure = undefined;
  stream._backpressureChangePromise = undefined;
  stream._parkedChunk = undefined;
  stream._parkedWrite = undefined;
  stream._afterBackpressure = () => performParkedWrite(stream);
  stream._fusedHop = undefined;
  TransformStreamSetBackpressure(stream, true);
  stream._transformStreamController = undefined as unknown as TransformStreamDefaultController<O>;
  registerTransformStream(stream);
}

/** The controller of `stream`'s readable side. */
export function readableController<I, O>(stream: TransformStream<I, O>): ReadableStreamDefaultController<O> {
  return stream._readable._readableStreamController as ReadableStreamDefaultController<O>;
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-error | TransformStreamError}. */
export function TransformStreamError<I, O>(stream: TransformStream<I, O>, e: unknown): void {
  if (stream._fusedHop !== undefined) releaseFusedRead(stream);
  ReadableStreamDefaultControllerError(readableController(stream), e);
  TransformStreamErrorWritableAndUnblockWrite(stream, e);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-error-writable-and-unblock-write | TransformStreamErrorWritableAndUnblockWrite}. */
export function TransformStreamErrorWritableAndUnblockWrite<I, O>(stream: TransformStream<I, O>, e: unknown): void {
  if (stream._fusedHop !== undefined) materializeFusedWrite(stream);
  TransformStreamDefaultControllerClearAlgorithms(stream._transformStreamController);
  WritableStreamDefaultControllerErrorIfNeeded(stream._writable._writableStreamController, e);
  TransformStreamUnblockWrite(stream);
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#transform-stream-set-backpressure | TransformStreamSetBackpressure}.
 * Returns the new [[backpressureChangePromise]]. The previous one is settled last: a synchronous observer of it (a
 * piped readable's pull, a piped write waiting for backpressure to lift) may change the backpressure again, and must
 * find the new state already in place.
 */
export function TransformStreamSetBackpressure<I, O>(
  stream: TransformStream<I, O>,
  backpressure: boolean,
): LazyDeferred<undefined> {
  const previous = stream._backpressureChangePromise;
  const created = new LazyDeferred<undefined>();
  stream._backpressureChangePromise = created;
  stream._backpressure = backpressure;
  if (previous !== undefined) previous.resolve(undefined);
  return created;
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-unblock-write | TransformStreamUnblockWrite}. */
export function TransformStreamUnblockWrite<I, O>(stream: TransformStream<I, O>): void {
  if (stream._backpressure === true) TransformStreamSetBackpressure(stream, false);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-sink-write-algorithm | TransformStreamDefaultSinkWriteAlgorithm}. */
export function TransformStreamDefaultSinkWriteAlgorithm<I, O>(stream: TransformStream<I, O>, chunk: I): Completion {
  if (stream._backpressure === true) {
    const result = new LazyDeferred<undefined>();
    stream._parkedChunk = chunk;
    stream._parkedWrite = result;
    const backpressureChange = stream._backpressureChangePromise as LazyDeferred<undefined>;
    const afterBackpressure = stream._afterBackpressure;
    const bothSidesPiped = isWritableSidePiped(stream) && readableController(stream)._pipedFrom;
    if (!bothSidesPiped || resumesForFusedRead(stream) || !backpressureChange.observeFulfilment(afterBackpressure))
      backpressureChange.react(afterBackpressure);
    return result;
  }
  return TransformStreamDefaultControllerPerformTransform(stream._transformStreamController, chunk);
}

/** The steps of TransformStreamDefaultSinkWriteAlgorithm once backpressure lifted for the parked write. */
function performParkedWrite<I, O>(stream: TransformStream<I, O>): void {
  const chunk = stream._parkedChunk as I;
  const result = stream._parkedWrite as LazyDeferred<undefined>;
  stream._parkedChunk = undefined;
  stream._parkedWrite = undefined;
  const writable = stream._writable;
  if (writable._state !== "writable") {
    result.reject(writable._storedError);
    return;
  }
  transformParkedWrite(stream, chunk, result);
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-sink-abort-algorithm | TransformStreamDefaultSinkAbortAlgorithm}. */
export function TransformStreamDefaultSinkAbortAlgorithm<I, O>(
  stream: TransformStream<I, O>,
  reason: unknown,
): Promise<unknown> {
  const controller = stream._transformStreamController;
  if (controller._finishPromise !== undefined) return controller._finishPromise.promise;
  const readable = stream._readable;
  const finishPromise = new Deferred<undefined>();
  controller._finishPromise = finishPromise;
  const cancelPromise = (controller._cancelAlgorithm as (reason: unknown) => Promise<unknown>)(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(
    cancelPromise,
    () => {
      if (readable._state === "errored") {
        finishPromise.reject(readable._storedError);
      } else {
        ReadableStreamDefaultControllerError(readableController(stream), reason);
        finishPromise.resolve(undefined);
      }
    },
    (r) => {
      ReadableStreamDefaultControllerError(readableController(stream), r);
      finishPromise.reject(r);
    },
  );
  return finishPromise.promise;
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-sink-close-algorithm | TransformStreamDefaultSinkCloseAlgorithm}. */
export function TransformStreamDefaultSinkCloseAlgorithm<I, O>(stream: TransformStream<I, O>): Promise<unknown> {
  const controller = stream._transformStreamController;
  if (controller._finishPromise !== undefined) return controller._finishPromise.promise;
  const readable = stream._readable;
  const finishPromise = new Deferred<undefined>();
  controller._finishPromise = finishPromise;
  const flushPromise = (controller._flushAlgorithm as () => Promise<unknown>)();
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(
    flushPromise,
    () => {
      if (readable._state === "errored") {
        finishPromise.reject(readable._storedError);
      } else {
        ReadableStreamDefaultControllerClose(readableController(stream));
        finishPromise.resolve(undefined);
      }
    },
    (r) => {
      ReadableStreamDefaultControllerError(readableController(stream), r);
      finishPromise.reject(r);
    },
  );
  return finishPromise.promise;
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-source-cancel | TransformStreamDefaultSourceCancelAlgorithm}.
 * One step more than the standard: once `terminate()` has cleared the algorithms (the readable side still closing
 * with chunks queued, so it can still be cancelled) there is no transformer left to tell and the writable side is
 * already errored, so the cancel resolves. The standard calls the cleared [[cancelAlgorithm]] there, which throws
 * (its [[finishPromise]] guard covers only a finish already started by close, abort or cancel).
 */
export function TransformStreamDefaultSourceCancelAlgorithm<I, O>(
  stream: TransformStream<I, O>,
  reason: unknown,
): Promise<unknown> {
  const controller = stream._transformStreamController;
  if (controller._finishPromise !== undefined) return controller._finishPromise.promise;
  if (controller._cancelAlgorithm === undefined) return resolvedUndefined;
  const writable = stream._writable;
  const finishPromise = new Deferred<undefined>();
  controller._finishPromise = finishPromise;
  const cancelPromise = (controller._cancelAlgorithm as (reason: unknown) => Promise<unknown>)(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(
    cancelPromise,
    () => {
      if (writable._state === "errored") {
        finishPromise.reject(writable._storedError);
      } else {
        WritableStreamDefaultControllerErrorIfNeeded(writable._writableStreamController, reason);
        TransformStreamUnblockWrite(stream);
        finishPromise.resolve(undefined);
      }
    },
    (r) => {
      WritableStreamDefaultControllerErrorIfNeeded(writable._writableStreamController, r);
      TransformStreamUnblockWrite(stream);
      finishPromise.reject(r);
    },
  );
  return finishPromise.promise;
}

/** Implements {@link https://streams.spec.whatwg.org/#transform-stream-default-source-pull | TransformStreamDefaultSourcePullAlgorithm}. */
export function TransformStreamDefaultSourcePullAlgorithm<I, O>(stream: TransformStream<I, O>): Completion {
  return TransformStreamSetBackpressure(stream, false);
}
