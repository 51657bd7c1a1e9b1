/**
 * `ReadableStream` and the abstract operations that work on readable streams (WHATWG Streams §4.9.1 and §4.9.2).
 * @module
 */

import "../platform-types.ts";
import type { Completion } from "../base/completion.ts";
import {
  promiseRejectedWith,
  promiseResolvedWith,
  setPromiseIsHandledToTrue,
  transformPromiseWith,
} from "../base/promise-helpers.ts";
import {
  convertQueuingStrategy,
  countOne,
  extractHighWaterMark,
  extractSizeAlgorithm,
  type QueuingStrategy,
  type SizeAlgorithm,
} from "../standard/queuing-strategy.ts";
import { CancelSteps } from "../standard/readable-stream-controller-steps.ts";
import { SimpleQueue } from "../standard/simple-queue.ts";
import {
  assertDictionary,
  assertRequiredArgument,
  convertBoolean,
  convertDOMString,
  hasOwnSlot,
  isObject,
  makeEnumerable,
  setToStringTag,
} from "../standard/webidl.ts";
import { batchIterator } from "./batch-iterator.ts";
import { hostWritableStreamLocked, isHostReadableStream } from "./host-streams.ts";
import { toAsyncStreamable } from "./iterable-protocols.ts";
import { pipeToHost } from "./pipe-to-host.ts";
import {
  ReadableByteStreamController,
  SetUpReadableByteStreamController,
  SetUpReadableByteStreamControllerFromUnderlyingSource,
} from "./readable-byte-stream-controller.ts";
import {
  createReadableStreamAsyncIterator,
  type ReadableStreamAsyncIterator,
} from "./readable-stream-async-iterator.ts";
import {
  ReadableStreamBYOBReader,
  ReadableStreamBYOBReaderErrorReadIntoRequests,
  type ReadIntoRequest,
  SetUpReadableStreamBYOBReader,
} from "./readable-stream-byob-reader.ts";
import {
  createReadableStreamDefaultController,
  type ReadableStreamDefaultController,
  SetUpReadableStreamDefaultController,
  SetUpReadableStreamDefaultControllerFromUnderlyingSource,
} from "./readable-stream-default-controller.ts";
import {
  ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderErrorReadRequests,
  type ReadRequest,
} from "./readable-stream-default-reader.ts";
import { ReadableStreamFromIterable } from "./readable-stream-from.ts";
import { ReadableStreamPipeTo } from "./readable-stream-pipe-to.ts";
import { ReadableStreamTee } from "./readable-stream-tee.ts";
import {
  convertUnderlyingSource,
  type UnderlyingByteSource,
  type UnderlyingDefaultSource,
  type UnderlyingSource,
} from "./underlying-source.ts";
import { IsWritableStreamLocked, isWritableStream, type WritableStream } from "./writable-stream.ts";

/** A readable stream's state ([[state]]). */
export type ReadableStreamState = "readable" | "closed" | "errored";

/** Either kind of reader. */
export type ReadableStreamReader<R> = ReadableStreamDefaultReader<R> | ReadableStreamBYOBReader;

/** Either kind of controller. */
export type ReadableStreamControllerImpl<R> = ReadableStreamDefaultController<R> | ReadableByteStreamController;

/** Options of {@link ReadableStream.getReader}. */
export interface ReadableStreamGetReaderOptions {
  /** `"byob"` for a BYOB reader. */
  mode?: "byob" | undefined;
}

/** Options of {@link ReadableStream.values}. */
export interface ReadableStreamIteratorOptions {
  /** When true, ending the iteration early does not cancel the stream. */
  preventCancel?: boolean;
}

/** Options of {@link ReadableStream.pipeTo} and {@link ReadableStream.pipeThrough}. */
export interface StreamPipeOptions {
  /** Do not abort the destination when the source errors. */
  preventAbort?: boolean;
  /** Do not cancel the source when the destination errors or closes. */
  preventCancel?: boolean;
  /** Do not close the destination when the source closes. */
  preventClose?: boolean;
  /** Aborts the pipe. */
  signal?: AbortSignal;
}

/** A writable/readable pair such as a `TransformStream`, for {@link ReadableStream.pipeThrough}. */
export interface ReadableWritablePair<R, W> {
  /** The side read from after piping. */
  readable: ReadableStream<R>;
  /** The side piped into. */
  writable: WritableStream<W>;
}

/** Converted StreamPipeOptions. */
export interface ConvertedPipeOptions {
  preventAbort: boolean;
  preventCancel: boolean;
  preventClose: boolean;
  signal: AbortSignal | undefined;
}

/**
 * A source of data that a consumer reads through a reader, iterates, or pipes.
 * @example
 * ```ts
 * const stream = new ReadableStream<number>({
 *   start(controller) {
 *     controller.enqueue(1);
 *     controller.close();
 *   },
 * });
 * for await (const n of stream) console.log(n);
 * ```
 */
export class ReadableStream<R = unknown> {
  /** @internal [[state]] */
  declare _state: ReadableStreamState;
  /** @internal [[reader]] */
  declare _reader: ReadableStreamReader<R> | undefined;
  /** @internal [[storedError]] */
  declare _storedError: unknown;
  /** @internal [[disturbed]] */
  declare _disturbed: boolean;
  /** @internal [[controller]] */
  declare _readableStreamController: ReadableStreamControllerImpl<R>;

  constructor(underlyingSource: UnderlyingByteSource, strategy?: { highWaterMark?: number });
  constructor(underlyingSource?: UnderlyingDefaultSource<R>, strategy?: QueuingStrategy<R>);
  constructor(underlyingSource?: UnderlyingSource<R> | null, strategy?: QueuingStrategy<R>);
  constructor(
    underlyingSource: object | null | undefined = undefined,
    strategy: QueuingStrategy<R> | undefined = undefined,
  ) {
    if (underlyingSource !== undefined && !isObject(underlyingSource)) {
      throw new TypeError("Cannot construct ReadableStream: first parameter is not an object");
    }
    const convertedStrategy = convertQueuingStrategy<R>(strategy, "Second parameter");
    const source = underlyingSource === undefined ? null : underlyingSource;
    const sourceDict = convertUnderlyingSource(source, "First parameter");
    InitializeReadableStream(this);
    if (sourceDict.type === "bytes") {
      if (convertedStrategy.size !== undefined) {
        throw new RangeError("Cannot construct a byte stream: the strategy has a size function");
      }
      const highWaterMark = extractHighWaterMark(convertedStrategy, 0);
      SetUpReadableByteStreamControllerFromUnderlyingSource(
        this as unknown as ReadableStream<Uint8Array>,
        source,
        sourceDict,
        highWaterMark,
      );
    } else {
      const sizeAlgorithm = extractSizeAlgorithm(convertedStrategy);
      const highWaterMark = extractHighWaterMark(convertedStrategy, 1);
      SetUpReadableStreamDefaultControllerFromUnderlyingSource(this, source, sourceDict, highWaterMark, sizeAlgorithm);
    }
  }

  /**
   * Creates a readable stream from an async iterable or a sync iterable object (such as an array or a generator).
   * A string is not iterated: as the standard has it since whatwg/streams#1372, only an object is accepted.
   *
   * @throws {TypeError} when `asyncIterable` is not an object (a string, a number, `null`, ...) or has no callable
   *   `Symbol.asyncIterator` or `Symbol.iterator` method.
   * @example
   * ```ts
   * const stream = ReadableStream.from([1, 2, 3]);
   * ReadableStream.from("abc" as never); // throws TypeError "Cannot create a stream: the argument is string …"
   * ```
   */
  static from<R>(asyncIterable: (AsyncIterable<R> | Iterable<R | PromiseLike<R>>) & object): ReadableStream<R> {
    return ReadableStreamFromIterable(asyncIterable);
  }

  /** Whether a reader (or a pipe) holds the stream's lock. */
  get locked(): boolean {
    if (!isReadableStream<R>(this)) throw streamBrandCheckError("locked");
    return IsReadableStreamLocked(this);
  }

  /** Cancels the stream: the consumer is no longer interested; queued chunks are discarded. */
  cancel(reason: unknown = undefined): Promise<void> {
    if (!isReadableStream<R>(this)) return promiseRejectedWith(streamBrandCheckError("cancel"));
    if (IsReadableStreamLocked(this)) {
      return promiseRejectedWith(new TypeError("Cannot cancel a stream that already has a reader"));
    }
    return ReadableStreamCancel(this, reason);
  }

  /** Locks the stream to a new reader: a default reader, or a BYOB reader with `{ mode: "byob" }`. */
  getReader(options: { mode: "byob" }): ReadableStreamBYOBReader;
  getReader(): ReadableStreamDefaultReader<R>;
  getReader(options?: ReadableStreamGetReaderOptions): ReadableStreamReader<R>;
  getReader(options: ReadableStreamGetReaderOptions | undefined = undefined): ReadableStreamReader<R> {
    if (!isReadableStream<R>(this)) throw streamBrandCheckError("getReader");
    assertDictionary(options, "First parameter");
    const rawMode = (options as ReadableStreamGetReaderOptions | null | undefined)?.mode;
    if (rawMode === undefined) return AcquireReadableStreamDefaultReader(this);
    const mode = convertDOMString(rawMode);
    if (mode !== "byob") {
      throw new TypeError(`Cannot get reader: mode must be "byob", got "${mode}"`);
    }
    return AcquireReadableStreamBYOBReader(this as unknown as ReadableStream<Uint8Array>);
  }

  /**
   * Pipes this stream into `transform.writable` and returns `transform.readable` as it is (typed as given, so a
   * drainpipe `ReadableStream` also type-checks where a platform `ReadableStream` is expected). Each side may be a
   * drainpipe stream or one of the host's own (`new TextDecoderStream()`, `new CompressionStream("gzip")`): a host
   * writable side is fed by the host's pipe (see {@link ReadableStream.pipeTo}). Anything else is refused with a
   * `TypeError`.
   */
  pipeThrough<RS extends object>(
    transform: { readable: RS; writable: WritableStream<R> | globalThis.WritableStream<R> },
    options: StreamPipeOptions | undefined = undefined,
  ): RS {
    if (!isReadableStream<R>(this)) throw streamBrandCheckError("pipeThrough");
    assertRequiredArgument(transform, 1, "pipeThrough");
    assertDictionary(transform, "First parameter");
    const rawReadable = (transform as Partial<ReadableWritablePair<unknown, R>>).readable;
    assertRequiredArgument(rawReadable, 1, "ReadableWritablePair.readable");
    if (!isReadableStream(rawReadable) && !isHostReadableStream(rawReadable)) {
      throw new TypeError("Cannot pipe through: transform.readable is not a ReadableStream");
    }
    const rawWritable = (transform as Partial<ReadableWritablePair<unknown, R>>).writable;
    assertRequiredArgument(rawWritable, 1, "ReadableWritablePair.writable");
    const own = isWritableStream(rawWritable);
    const hostLocked = own ? undefined : hostWritableStreamLocked(rawWritable);
    if (!own && hostLocked === undefined) {
      throw new TypeError("Cannot pipe through: transform.writable is not a WritableStream");
    }
    const converted = convertPipeOptions(options);
    if (IsReadableStreamLocked(this)) {
      throw new TypeError("Cannot pipe a locked ReadableStream");
    }
    if (own ? IsWritableStreamLocked(rawWritable) : hostLocked) {
      throw new TypeError("Cannot pipe into a locked WritableStream");
    }
    const promise = own
      ? ReadableStreamPipeTo<R>(
          this,
          rawWritable as WritableStream<R>,
          converted.preventClose,
          converted.preventAbort,
          converted.preventCancel,
          converted.signal,
        )
      : pipeToHost(this, rawWritable as unknown as globalThis.WritableStream<R>, converted);
    setPromiseIsHandledToTrue(promise);
    return rawReadable as RS;
  }

  /**
   * Pipes this stream into a writable stream; resolves when the pipe finishes. The destination may also be one of
   * the host's own `WritableStream`s: the host's pipe then writes it, fed a batch at a time from this stream, with
   * the same options, and cancel, abort and errors cross as between two drainpipe streams.
   */
  pipeTo(
    destination: WritableStream<R> | globalThis.WritableStream<R>,
    options: StreamPipeOptions | undefined = undefined,
  ): Promise<undefined> {
    if (!isReadableStream<R>(this)) return promiseRejectedWith(streamBrandCheckError("pipeTo"));
    if (destination === undefined) {
      return promiseRejectedWith(new TypeError("Parameter 1 is required in 'pipeTo'"));
    }
    const own = isWritableStream(destination);
    const hostLocked = own ? undefined : hostWritableStreamLocked(destination);
    if (!own && hostLocked === undefined) {
      return promiseRejectedWith(new TypeError("Cannot pipe: first parameter is not a WritableStream"));
    }
    let converted: ConvertedPipeOptions;
    try {
      converted = convertPipeOptions(options);
    } catch (error) {
      return promiseRejectedWith(error);
    }
    if (IsReadableStreamLocked(this)) {
      return promiseRejectedWith(new TypeError("Cannot pipe a locked ReadableStream"));
    }
    if (own ? IsWritableStreamLocked(destination) : hostLocked) {
      return promiseRejectedWith(new TypeError("Cannot pipe into a locked WritableStream"));
    }
    if (!own) return pipeToHost(this, destination as globalThis.WritableStream<R>, converted);
    return ReadableStreamPipeTo<R>(
      this,
      destination as WritableStream<R>,
      converted.preventClose,
      converted.preventAbort,
      converted.preventCancel,
      converted.signal,
    );
  }

  /** Splits the stream into two branches that each receive every chunk. */
  tee(): [ReadableStream<R>, ReadableStream<R>] {
    if (!isReadableStream<R>(this)) throw streamBrandCheckError("tee");
    return ReadableStreamTee(this, false);
  }

  /** Returns an async iterator over the chunks; `preventCancel` keeps the stream alive after an early exit. */
  values(options: ReadableStreamIteratorOptions | undefined = undefined): ReadableStreamAsyncIterator<R> {
    if (!isReadableStream<R>(this)) throw streamBrandCheckError("values");
    assertDictionary(options, "First parameter");
    const preventCancel = convertBoolean((options as ReadableStreamIteratorOptions | null | undefined)?.preventCancel);
    return createReadableStreamAsyncIterator(this, preventCancel);
  }

  /** Same as {@link ReadableStream.values}. */
  declare [Symbol.asyncIterator]: (options?: ReadableStreamIteratorOptions) => ReadableStreamAsyncIterator<R>;

  /**
   * The iterable-streams API's conversion (`Symbol.for("Stream.toAsyncStreamable")`, not in the WHATWG standard):
   * the stream as an async iterable of `Uint8Array[]` batches, one draining read (`readMany`) per step, so that
   * API's `from`, `pull`, `bytes` and `pipeTo` take whole batches. Byte chunks pass as they are, strings UTF-8
   * encoded; any other chunk rejects its step with a `TypeError` (and cancels the stream). Locks the stream;
   * ending early (`return()`) cancels it; the stream's end or error releases it, as with {@link ReadableStream.values}.
   */
  declare [toAsyncStreamable]: () => AsyncIterableIterator<Uint8Array[], undefined>;
}

Object.defineProperty(ReadableStream.prototype, Symbol.asyncIterator, {
  value: ReadableStream.prototype.values,
  writable: true,
  configurable: true,
});
Object.defineProperty(ReadableStream.prototype, toAsyncStreamable, {
  value: function asyncStreamable(this: ReadableStream<unknown>) {
    if (!isReadableStream(this)) throw streamBrandCheckError('[Symbol.for("Stream.toAsyncStreamable")]');
    return batchIterator(this);
  },
  writable: true,
  configurable: true,
});
makeEnumerable(ReadableStream, ["locked", "cancel", "getReader", "pipeThrough", "pipeTo", "tee", "values"]);
Object.defineProperty(ReadableStream, "from", { enumerable: true });
setToStringTag(ReadableStream, "ReadableStream");

function streamBrandCheckError(name: string): TypeError {
  return new TypeError(`Cannot use ReadableStream.prototype.${name}: receiver is not a ReadableStream`);
}

/** Converts a `StreamPipeOptions` dictionary (members in WebIDL order). */
export function convertPipeOptions(options: unknown): ConvertedPipeOptions {
  assertDictionary(options, "Second parameter");
  const dict = options as StreamPipeOptions | null | undefined;
  const preventAbort = convertBoolean(dict?.preventAbort);
  const preventCancel = convertBoolean(dict?.preventCancel);
  const preventClose = convertBoolean(dict?.preventClose);
  const signal = dict?.signal;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new TypeError("Cannot pipe: options.signal is not an AbortSignal");
  }
  return { preventAbort, preventCancel, preventClose, signal };
}

const abortedGetter =
  typeof AbortSignal === "function"
    ? Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")?.get
    : undefined;

function isAbortSignal(value: unknown): value is AbortSignal {
  if (!isObject(value)) return false;
  if (abortedGetter === undefined) return "aborted" in value;
  try {
    abortedGetter.call(value);
    return true;
  } catch {
    return false;
  }
}

// Abstract operations: working with readable streams

/** Implements {@link https://streams.spec.whatwg.org/#acquire-readable-stream-byob-reader | AcquireReadableStreamBYOBReader}. */
export function AcquireReadableStreamBYOBReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader {
  const reader = Object.create(ReadableStreamBYOBReader.prototype) as ReadableStreamBYOBReader;
  SetUpReadableStreamBYOBReader(reader, stream);
  return reader;
}

/** Implements {@link https://streams.spec.whatwg.org/#acquire-readable-stream-reader | AcquireReadableStreamDefaultReader}. */
export function AcquireReadableStreamDefaultReader<R>(stream: ReadableStream<R>): ReadableStreamDefaultReader<R> {
  // The constructor's own checks pass for a stream; made by `new`, the reader keeps its slots in the object itself.
  return new ReadableStreamDefaultReader(stream);
}

/** Pull, cancel and start algorithms used by streams created internally. */
export type StartAlgorithm = () => unknown;
/** Returns the completion of the pull (`undefined` when it finished synchronously). */
export type PullAlgorithm = () => Completion;
/** Returns a promise that settles when the cancellation completes. */
export type CancelAlgorithm = (reason: unknown) => Promise<unknown>;

/** Implements {@link https://streams.spec.whatwg.org/#create-readable-stream | CreateReadableStream}: a default-controller stream driven by internal algorithms. */
export function CreateReadableStream<R>(
  startAlgorithm: StartAlgorithm,
  pullAlgorithm: PullAlgorithm,
  cancelAlgorithm: CancelAlgorithm,
  highWaterMark = 1,
  sizeAlgorithm: SizeAlgorithm<R> = countOne,
): ReadableStream<R> {
  const stream = Object.create(ReadableStream.prototype) as ReadableStream<R>;
  InitializeReadableStream(stream);
  const controller = createReadableStreamDefaultController<R>();
  SetUpReadableStreamDefaultController(
    stream,
    controller,
    startAlgorithm,
    pullAlgorithm,
    cancelAlgorithm,
    highWaterMark,
    sizeAlgorithm,
  );
  return stream;
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-createreadablebytestream | CreateReadableByteStream}: a byte stream driven by internal algorithms. */
export function CreateReadableByteStream(
  startAlgorithm: StartAlgorithm,
  pullAlgorithm: PullAlgorithm,
  cancelAlgorithm: CancelAlgorithm,
): ReadableStream<Uint8Array> {
  const stream = Object.create(ReadableStream.prototype) as ReadableStream<Uint8Array>;
  InitializeReadableStream(stream);
  const controller = Object.create(ReadableByteStreamController.prototype) as ReadableByteStreamController;
  SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, 0, undefined);
  return stream;
}

/** Implements {@link https://streams.spec.whatwg.org/#initialize-readable-stream | InitializeReadableStream}. */
export function InitializeReadableStream<R>(stream: ReadableStream<R>): void {
  stream._state = "readable";
  stream._reader = undefined;
  stream._storedError = undefined;
  stream._disturbed = false;
}

/** Brand check: whether `value` is a `ReadableStream` created by this implementation. */
export function isReadableStream<R = unknown>(value: unknown): value is ReadableStream<R> {
  return hasOwnSlot(value, "_readableStreamController");
}

/** Implements {@link https://streams.spec.whatwg.org/#is-readable-stream-locked | IsReadableStreamLocked}. */
export function IsReadableStreamLocked<R>(stream: ReadableStream<R>): boolean {
  return stream._reader !== undefined;
}

// Abstract operations: interfacing with controllers

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-add-read-into-request | ReadableStreamAddReadIntoRequest}. */
export function ReadableStreamAddReadIntoRequest(
  stream: ReadableStream<Uint8Array>,
  readIntoRequest: ReadIntoRequest,
): void {
  (stream._reader as ReadableStreamBYOBReader)._readIntoRequests.push(readIntoRequest);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-add-read-request | ReadableStreamAddReadRequest}. */
export function ReadableStreamAddReadRequest<R>(stream: ReadableStream<R>, readRequest: ReadRequest<R>): void {
  (stream._reader as ReadableStreamDefaultReader<R>)._readRequests.push(readRequest);
}

function returnUndefined(): undefined {
  return undefined;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-cancel | ReadableStreamCancel}. */
export function ReadableStreamCancel<R>(stream: ReadableStream<R>, reason: unknown): Promise<undefined> {
  stream._disturbed = true;
  if (stream._state === "closed") return promiseResolvedWith(undefined);
  if (stream._state === "errored") return promiseRejectedWith(stream._storedError);
  ReadableStreamClose(stream);
  const reader = stream._reader;
  if (reader !== undefined && reader instanceof ReadableStreamBYOBReader) {
    const readIntoRequests = reader._readIntoRequests;
    reader._readIntoRequests = new SimpleQueue();
    readIntoRequests.forEach((request) => {
      request.closeSteps(undefined);
    });
  }
  const sourceCancelPromise = stream._readableStreamController[CancelSteps](reason);
  return transformPromiseWith(sourceCancelPromise, returnUndefined);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-close | ReadableStreamClose}. */
export function ReadableStreamClose<R>(stream: ReadableStream<R>): void {
  stream._state = "closed";
  const reader = stream._reader;
  if (reader === undefined) return;
  reader._closedPromise.resolve(undefined);
  if (reader instanceof ReadableStreamDefaultReader) {
    const readRequests = reader._readRequests;
    if (readRequests.length === 0) return;
    reader._readRequests = new SimpleQueue();
    readRequests.forEach((request) => {
      request.closeSteps();
    });
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-error | ReadableStreamError}. */
export function ReadableStreamError<R>(stream: ReadableStream<R>, error: unknown): void {
  stream._state = "errored";
  stream._storedError = error;
  const reader = stream._reader;
  if (reader === undefined) return;
  reader._closedPromise.reject(error);
  if (reader instanceof ReadableStreamDefaultReader) {
    ReadableStreamDefaultReaderErrorReadRequests(reader, error);
  } else {
    ReadableStreamBYOBReaderErrorReadIntoRequests(reader, error);
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-fulfill-read-into-request | ReadableStreamFulfillReadIntoRequest}. */
export function ReadableStreamFulfillReadIntoRequest(
  stream: ReadableStream<Uint8Array>,
  chunk: ArrayBufferView<ArrayBuffer>,
  done: boolean,
): void {
  const reader = stream._reader as ReadableStreamBYOBReader;
  const readIntoRequest = reader._readIntoRequests.shift();
  if (done) readIntoRequest.closeSteps(chunk);
  else readIntoRequest.chunkSteps(chunk);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-fulfill-read-request | ReadableStreamFulfillReadRequest}. */
export function ReadableStreamFulfillReadRequest<R>(
  stream: ReadableStream<R>,
  chunk: R | undefined,
  done: boolean,
): void {
  const reader = stream._reader as ReadableStreamDefaultReader<R>;
  const readRequest = reader._readRequests.shift();
  if (done) readRequest.closeSteps();
  else readRequest.chunkSteps(chunk as R);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-get-num-read-into-requests | ReadableStreamGetNumReadIntoRequests}. */
export function ReadableStreamGetNumReadIntoRequests(stream: ReadableStream<Uint8Array>): number {
  return (stream._reader as ReadableStreamBYOBReader)._readIntoRequests.length;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-get-num-read-requests | ReadableStreamGetNumReadRequests}. */
export function ReadableStreamGetNumReadRequests<R>(stream: ReadableStream<R>): number {
  return (stream._reader as ReadableStreamDefaultReader<R>)._readRequests.length;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-has-byob-reader | ReadableStreamHasBYOBReader}. */
export function ReadableStreamHasBYOBReader<R>(stream: ReadableStream<R>): boolean {
  const reader = stream._reader;
  return reader !== undefined && reader instanceof ReadableStreamBYOBReader;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-has-default-reader | ReadableStreamHasDefaultReader}. */
export function ReadableStreamHasDefaultReader<R>(stream: ReadableStream<R>): boolean {
  const reader = stream._reader;
  return reader !== undefined && reader instanceof ReadableStreamDefaultReader;
}
