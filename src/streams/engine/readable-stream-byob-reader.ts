/**
 * `ReadableStreamBYOBReader` and its abstract operations (WHATWG Streams §4.5 and §4.9.4).
 * @module
 */

import type { LazyDeferred } from "../base/completion.ts";
import { Deferred, promiseRejectedWith } from "../base/promise-helpers.ts";
import { type ArrayBufferViewLike, assertArrayBufferView, isDetachedBuffer } from "../standard/array-buffer-helpers.ts";
import { SimpleQueue } from "../standard/simple-queue.ts";
import {
  assertDictionary,
  assertRequiredArgument,
  convertEnforceRangeUnsignedLongLong,
  hasOwnSlot,
  makeEnumerable,
  setToStringTag,
} from "../standard/webidl.ts";
import {
  ReadableByteStreamController,
  ReadableByteStreamControllerPullInto,
} from "./readable-byte-stream-controller.ts";
import { IsReadableStreamLocked, isReadableStream, type ReadableStream } from "./readable-stream.ts";
import {
  ReadableStreamReaderGenericCancel,
  ReadableStreamReaderGenericInitialize,
  ReadableStreamReaderGenericRelease,
} from "./readable-stream-generic-reader.ts";

/** Options of {@link ReadableStreamBYOBReader.read}. */
export interface ReadableStreamBYOBReaderReadOptions {
  /** Minimum number of elements to fill before the read completes (default 1). */
  min?: number;
}

/**
 * The result of a BYOB read: the filled view, or `done: true` once the stream has closed, with the view emptied
 * over the same memory (or `undefined` when the stream was cancelled).
 */
export type ReadableStreamBYOBReadResult<T> = { done: false; value: T } | { done: true; value: T | undefined };

/** A read-into request: the three ways a pending BYOB read can end. */
export interface ReadIntoRequest {
  /** Bytes were read into a view. */
  chunkSteps(chunk: ArrayBufferViewLike): void;
  /** The stream closed; `chunk` is the (possibly empty) view, or undefined when cancelled. */
  closeSteps(chunk: ArrayBufferViewLike | undefined): void;
  /** The stream errored. */
  errorSteps(error: unknown): void;
}

class PromiseReadIntoRequest<T extends ArrayBufferViewLike> implements ReadIntoRequest {
  readonly deferred = new Deferred<ReadableStreamBYOBReadResult<T>>();

  chunkSteps(chunk: ArrayBufferViewLike): void {
    this.deferred.resolve({ value: chunk as T, done: false });
  }

  closeSteps(chunk: ArrayBufferViewLike | undefined): void {
    this.deferred.resolve({ value: chunk as T | undefined, done: true });
  }

  errorSteps(error: unknown): void {
    this.deferred.reject(error);
  }
}

/**
 * Reads from a byte stream into buffers the caller provides.
 * @example
 * ```ts
 * declare const byteStream: ReadableStream<Uint8Array>;
 * const reader = byteStream.getReader({ mode: "byob" });
 * const { value, done } = await reader.read(new Uint8Array(65536), { min: 65536 });
 * ```
 */
export class ReadableStreamBYOBReader {
  /** @internal [[stream]] */
  declare _ownerReadableStream: ReadableStream<Uint8Array> | undefined;
  /** @internal [[closedPromise]] */
  declare _closedPromise: LazyDeferred<undefined>;
  /** @internal [[readIntoRequests]] */
  declare _readIntoRequests: SimpleQueue<ReadIntoRequest>;

  constructor(stream: ReadableStream<Uint8Array>) {
    assertRequiredArgument(stream, 1, "ReadableStreamBYOBReader");
    if (!isReadableStream(stream)) {
      throw new TypeError("Cannot construct ReadableStreamBYOBReader: first parameter is not a ReadableStream");
    }
    SetUpReadableStreamBYOBReader(this, stream as ReadableStream<Uint8Array>);
  }

  /** Fulfils when the stream closes, rejects when it errors or the lock is released. */
  get closed(): Promise<void> {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(readerBrandCheckError("closed"));
    return this._closedPromise.promise;
  }

  /** Cancels the stream. */
  cancel(reason: unknown = undefined): Promise<void> {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(readerBrandCheckError("cancel"));
    if (this._ownerReadableStream === undefined) {
      return promiseRejectedWith(new TypeError("Cannot cancel a stream using a released reader"));
    }
    return ReadableStreamReaderGenericCancel(this, reason);
  }

  /**
   * Reads bytes into `view` (whose buffer is transferred); resolves with a new view over the same memory.
   * With `{ min }` the read waits until at least `min` elements are filled (or the stream ends). A view over a
   * `SharedArrayBuffer` is rejected with a `TypeError` (its type is accepted, as the platform's `read` accepts it).
   */
  read<T extends ArrayBufferView>(
    view: T,
    options: ReadableStreamBYOBReaderReadOptions | undefined = undefined,
  ): Promise<ReadableStreamBYOBReadResult<T>> {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(readerBrandCheckError("read"));
    let min: number;
    try {
      assertRequiredArgument(view, 1, "read");
      assertArrayBufferView(view, "First parameter");
      assertDictionary(options, "Second parameter");
      const rawMin = (options as ReadableStreamBYOBReaderReadOptions | null | undefined)?.min;
      min = rawMin === undefined ? 1 : convertEnforceRangeUnsignedLongLong(rawMin, "options.min");
    } catch (error) {
      return promiseRejectedWith(error);
    }
    if (view.byteLength === 0) return promiseRejectedWith(new TypeError("Cannot read into a view with byteLength 0"));
    if (view.buffer.byteLength === 0) {
      return promiseRejectedWith(new TypeError("Cannot read into a view whose buffer has byteLength 0"));
    }
    if (isDetachedBuffer(view.buffer)) return promiseRejectedWith(new TypeError("Cannot read into a detached buffer"));
    if (min === 0) return promiseRejectedWith(new TypeError("Cannot read: options.min must be greater than 0"));
    if (!(view instanceof DataView)) {
      if (min > (view as unknown as { length: number }).length) {
        return promiseRejectedWith(new RangeError("Cannot read: options.min is larger than the view's length"));
      }
    } else if (min > view.byteLength) {
      return promiseRejectedWith(new RangeError("Cannot read: options.min is larger than the view's byteLength"));
    }
    if (this._ownerReadableStream === undefined) {
      return promiseRejectedWith(new TypeError("Cannot read from a stream using a released reader"));
    }
    // `assertArrayBufferView` rejected views over a `SharedArrayBuffer`.
    const readIntoRequest = new PromiseReadIntoRequest<T & ArrayBufferViewLike>();
    ReadableStreamBYOBReaderRead(this, view as T & ArrayBufferViewLike, min, readIntoRequest);
    return readIntoRequest.deferred.promise as Promise<ReadableStreamBYOBReadResult<T>>;
  }

  /** Releases the reader's lock; pending reads reject with a `TypeError`. */
  releaseLock(): void {
    if (!isReadableStreamBYOBReader(this)) throw readerBrandCheckError("releaseLock");
    if (this._ownerReadableStream === undefined) return;
    ReadableStreamBYOBReaderRelease(this);
  }
}

makeEnumerable(ReadableStreamBYOBReader, ["closed", "cancel", "read", "releaseLock"]);
setToStringTag(ReadableStreamBYOBReader, "ReadableStreamBYOBReader");

function readerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use ReadableStreamBYOBReader.prototype.${name}: receiver is not a ReadableStreamBYOBReader`,
  );
}

/** Brand check for `ReadableStreamBYOBReader`. */
export function isReadableStreamBYOBReader(value: unknown): value is ReadableStreamBYOBReader {
  return hasOwnSlot(value, "_readIntoRequests");
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreadererrorreadintorequests | ReadableStreamBYOBReaderErrorReadIntoRequests}. */
export function ReadableStreamBYOBReaderErrorReadIntoRequests(reader: ReadableStreamBYOBReader, error: unknown): void {
  const requests = reader._readIntoRequests;
  reader._readIntoRequests = new SimpleQueue();
  requests.forEach((request) => {
    request.errorSteps(error);
  });
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-byob-reader-read | ReadableStreamBYOBReaderRead}. */
export function ReadableStreamBYOBReaderRead(
  reader: ReadableStreamBYOBReader,
  view: ArrayBufferViewLike,
  min: number,
  readIntoRequest: ReadIntoRequest,
): void {
  const stream = reader._ownerReadableStream as ReadableStream<Uint8Array>;
  stream._disturbed = true;
  if (stream._state === "errored") {
    readIntoRequest.errorSteps(stream._storedError);
  } else {
    ReadableByteStreamControllerPullInto(
      stream._readableStreamController as ReadableByteStreamController,
      view,
      min,
      readIntoRequest,
    );
  }
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreaderrelease | ReadableStreamBYOBReaderRelease}. */
export function ReadableStreamBYOBReaderRelease(reader: ReadableStreamBYOBReader): void {
  ReadableStreamReaderGenericRelease(reader);
  ReadableStreamBYOBReaderErrorReadIntoRequests(
    reader,
    new TypeError("Cannot finish the read: the reader's lock was released"),
  );
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-stream-byob-reader | SetUpReadableStreamBYOBReader}. */
export function SetUpReadableStreamBYOBReader(
  reader: ReadableStreamBYOBReader,
  stream: ReadableStream<Uint8Array>,
): void {
  if (IsReadableStreamLocked(stream)) {
    throw new TypeError("Cannot get a BYOB reader: the stream is already locked");
  }
  if (!(stream._readableStreamController instanceof ReadableByteStreamController)) {
    throw new TypeError("Cannot get a BYOB reader: the stream is not a byte stream");
  }
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader._readIntoRequests = new SimpleQueue();
}
