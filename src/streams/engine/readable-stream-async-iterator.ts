/**
 * The async iterator of `ReadableStream` (`values()` / `for await`), following WebIDL's asynchronous iterator
 * protocol on top of the stream's "get the next iteration result" and "asynchronous iterator return" steps.
 * @module
 */

import {
  Deferred,
  promiseRejectedWith,
  promiseResolvedWith,
  reactionToResolved,
  transformPromiseWith,
} from "../base/promise-helpers.ts";
import { createBrand, setFunctionName } from "../standard/webidl.ts";
import { NO_CHUNK, tryDequeue } from "./fast-paths/dequeue.ts";
import { AcquireReadableStreamDefaultReader, type ReadableStream } from "./readable-stream.ts";
import {
  type ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderRead,
  ReadableStreamDefaultReaderRelease,
  type ReadRequest,
} from "./readable-stream-default-reader.ts";
import { internalReaderReleasedError, ReadableStreamReaderGenericCancel } from "./readable-stream-generic-reader.ts";

/** The iterator `ReadableStream.prototype.values()` returns. */
export interface ReadableStreamAsyncIterator<R> extends AsyncIteratorObject<R, undefined, unknown> {
  /** Reads the next chunk. */
  next(): Promise<IteratorResult<R, undefined>>;
  /** Ends the iteration, cancelling the stream unless `preventCancel` was set. */
  return(value?: unknown): Promise<IteratorResult<R, undefined>>;
  /** Returns the iterator itself. */
  [Symbol.asyncIterator](): ReadableStreamAsyncIterator<R>;
}

const END_OF_ITERATION: unique symbol = Symbol("end of iteration");

/** The internal slots of an iterator object (the async iterator's reader and its iteration state). */
interface IteratorSlots<R> {
  /** @internal The iterator's reader (its own-property presence is the brand). */
  _asyncIteratorReader: ReadableStreamDefaultReader<R>;
  /** @internal The `preventCancel` option given to `values()`. */
  _preventCancel: boolean;
  /** @internal The ongoing promise: the latest `next()`/`return()`, which the next call chains onto. */
  _ongoingPromise: Promise<IteratorResult<R, undefined>> | undefined;
  /** @internal Set once the iteration has ended. */
  _isFinished: boolean;
  /** @internal nextSteps' fulfilment steps: the iteration result of a read's outcome (made once per iterator). */
  _onRead: (next: R | typeof END_OF_ITERATION) => IteratorResult<R, undefined>;
  /** @internal nextSteps' rejection steps (made once per iterator). */
  _onReadFailure: (reason: unknown) => never;
  /** @internal nextSteps, for chaining onto the ongoing promise (made once per iterator). */
  _nextSteps: () => Promise<IteratorResult<R, undefined>>;
  /** @internal The chunk a `next()` took from the queue, until the reaction that makes its result. */
  _queuedChunk: R | undefined;
  /** @internal That reaction: {@link IteratorSlots._onRead} of the queued chunk (made once per iterator). */
  _onQueuedRead: () => IteratorResult<R, undefined>;
}

/** The read request of `next()`: settles its own promise with the chunk, or the end of the iteration. */
class NextReadRequest<R> extends Deferred<R | typeof END_OF_ITERATION> implements ReadRequest<R> {
  private readonly reader: ReadableStreamDefaultReader<R>;

  constructor(reader: ReadableStreamDefaultReader<R>) {
    super();
    this.reader = reader;
  }

  chunkSteps(chunk: R): void {
    this.resolve(chunk);
  }

  closeSteps(): void {
    ReadableStreamDefaultReaderRelease(this.reader, internalReaderReleasedError);
    this.resolve(END_OF_ITERATION);
  }

  errorSteps(error: unknown): void {
    ReadableStreamDefaultReaderRelease(this.reader, internalReaderReleasedError);
    this.reject(error);
  }
}

function getNextIterationResult<R>(slots: IteratorSlots<R>): Promise<R | typeof END_OF_ITERATION> {
  const reader = slots._asyncIteratorReader;
  if (reader._ownerReadableStream === undefined) {
    return promiseRejectedWith(new TypeError("Cannot iterate a stream using a released reader"));
  }
  const readRequest = new NextReadRequest(reader);
  ReadableStreamDefaultReaderRead(reader, readRequest);
  return readRequest.promise;
}

function asyncIteratorReturn<R>(slots: IteratorSlots<R>, arg: unknown): Promise<undefined> {
  const reader = slots._asyncIteratorReader;
  if (reader._ownerReadableStream === undefined) return promiseResolvedWith(undefined);
  if (!slots._preventCancel) {
    const result = ReadableStreamReaderGenericCancel(reader, arg);
    ReadableStreamDefaultReaderRelease(reader, internalReaderReleasedError);
    return result;
  }
  ReadableStreamDefaultReaderRelease(reader, internalReaderReleasedError);
  return promiseResolvedWith(undefined);
}

/**
 * The `next()` steps of WebIDL's asynchronous iterator: the result of the next read, or the end. Its reactions are
 * the iterator's own, made once: a function made per call would be one more allocation per chunk, and bundlers
 * that keep names (esbuild's `keepNames`, on in wrangler) add a `name` property to every function a named binding
 * holds, a property definition per chunk.
 */
function nextSteps<R>(slots: IteratorSlots<R>): Promise<IteratorResult<R, undefined>> {
  if (slots._isFinished) return promiseResolvedWith({ value: undefined, done: true });
  return transformPromiseWith(getNextIterationResult(slots), slots._onRead, slots._onReadFailure);
}

function iteratorBrandCheckError(name: string): TypeError {
  return new TypeError(`Cannot use ${name} of a ReadableStream async iterator: receiver is not one`);
}

/** Marks the iterators {@link ReadableStream.values} creates (a per-chunk check in `next`). */
const iteratorBrand = createBrand();

const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype) as object;

const methods = {
  next<R>(this: IteratorSlots<R>): Promise<IteratorResult<R, undefined>> {
    if (!iteratorBrand.has(this)) return promiseRejectedWith(iteratorBrandCheckError("next"));
    if (this._ongoingPromise === undefined && !this._isFinished) {
      const stream = this._asyncIteratorReader._ownerReadableStream;
      if (stream !== undefined && stream._state === "readable") {
        const chunk = stream._readableStreamController[tryDequeue]();
        if (chunk !== NO_CHUNK) {
          // What nextSteps does for a read served from the queue, without the read request and the promise it
          // settles at once: the result is made one job later (the reaction to that promise, here to one already
          // fulfilled), and the next call chains onto it. Until then no other next() takes this path.
          stream._disturbed = true;
          this._queuedChunk = chunk as R;
          const promise = reactionToResolved(this._onQueuedRead);
          this._ongoingPromise = promise;
          return promise;
        }
      }
    }
    const ongoing = this._ongoingPromise;
    this._ongoingPromise =
      ongoing === undefined ? nextSteps(this) : transformPromiseWith(ongoing, this._nextSteps, this._nextSteps);
    return this._ongoingPromise;
  },
  return<R>(this: IteratorSlots<R>, value: unknown): Promise<IteratorResult<R, undefined>> {
    if (!iteratorBrand.has(this)) return promiseRejectedWith(iteratorBrandCheckError("return"));
    const returnSteps = (): Promise<IteratorResult<R, undefined>> => {
      if (this._isFinished) return promiseResolvedWith({ value: value as undefined, done: true });
      this._isFinished = true;
      return asyncIteratorReturn(this, value) as unknown as Promise<IteratorResult<R, undefined>>;
    };
    const ongoing = this._ongoingPromise;
    this._ongoingPromise =
      ongoing === undefined ? returnSteps() : transformPromiseWith(ongoing, returnSteps, returnSteps);
    return transformPromiseWith(this._ongoingPromise, () => ({ value: value as undefined, done: true }));
  },
};

const ReadableStreamAsyncIteratorPrototype = Object.create(AsyncIteratorPrototype) as object;
Object.defineProperty(ReadableStreamAsyncIteratorPrototype, "next", {
  value: methods.next,
  writable: true,
  enumerable: true,
  configurable: true,
});
Object.defineProperty(ReadableStreamAsyncIteratorPrototype, "return", {
  value: methods.return,
  writable: true,
  enumerable: true,
  configurable: true,
});
Object.defineProperty(ReadableStreamAsyncIteratorPrototype, Symbol.toStringTag, {
  value: "ReadableStream AsyncIterator",
  configurable: true,
});
setFunctionName(methods.next, "next");
setFunctionName(methods.return, "return");

/** Creates the async iterator for `stream` (locks it with a default reader). */
export function createReadableStreamAsyncIterator<R>(
  stream: ReadableStream<R>,
  preventCancel: boolean,
): ReadableStreamAsyncIterator<R> {
  const reader = AcquireReadableStreamDefaultReader(stream);
  const iterator = Object.create(ReadableStreamAsyncIteratorPrototype) as IteratorSlots<R>;
  iterator._asyncIteratorReader = reader;
  iteratorBrand.stamp(iterator);
  iterator._preventCancel = preventCancel;
  iterator._ongoingPromise = undefined;
  iterator._isFinished = false;
  iterator._onRead = (next) => {
    iterator._ongoingPromise = undefined;
    if (next === END_OF_ITERATION) {
      iterator._isFinished = true;
      return { value: undefined, done: true };
    }
    return { value: next, done: false };
  };
  iterator._onReadFailure = (reason) => {
    iterator._ongoingPromise = undefined;
    iterator._isFinished = true;
    throw reason;
  };
  iterator._nextSteps = () => nextSteps(iterator);
  iterator._queuedChunk = undefined;
  iterator._onQueuedRead = () => {
    const chunk = iterator._queuedChunk as R;
    iterator._queuedChunk = undefined;
    return iterator._onRead(chunk);
  };
  return iterator as unknown as ReadableStreamAsyncIterator<R>;
}
