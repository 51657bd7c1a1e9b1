/**
 * `ReadableStreamDefaultReader` and its abstract operations (WHATWG Streams §4.4 and §4.9.4).
 * @module
 */

import type { LazyDeferred } from "../base/completion.ts";
import { type Deferred, PromiseCtor, promiseRejectedWith, promiseResolvedWith } from "../base/promise-helpers.ts";
import { PullSteps } from "../standard/readable-stream-controller-steps.ts";
import { SimpleQueue } from "../standard/simple-queue.ts";
import { assertRequiredArgument, createBrand, makeEnumerable, setToStringTag } from "../standard/webidl.ts";
import { NO_CHUNK, tryDequeue } from "./fast-paths/dequeue.ts";
import {
  type ReadManyOptions,
  type ReadManyResult,
  readableStreamDefaultReaderReadMany,
} from "./fast-paths/read-many.ts";
import { IsReadableStreamLocked, isReadableStream, type ReadableStream } from "./readable-stream.ts";
import {
  ReadableStreamReaderGenericCancel,
  ReadableStreamReaderGenericInitialize,
  ReadableStreamReaderGenericRelease,
} from "./readable-stream-generic-reader.ts";

/** The result of a default reader's read: a chunk, or `done: true` (with no value) once the stream has closed. */
export type ReadableStreamReadResult<T> = { done: false; value: T } | { done: true; value: undefined };

/** A read request: the three ways a pending read can end. */
export interface ReadRequest<R> {
  /** A chunk is available. */
  chunkSteps(chunk: R): void;
  /** The stream closed. */
  closeSteps(): void;
  /** The stream errored. */
  errorSteps(error: unknown): void;
}

/**
 * Read request behind `reader.read()`: holds the read's promise and its resolving functions itself (one object per
 * waiting read besides the promise; a {@link Deferred} would add a second, and a closure for its executor).
 */
class PromiseReadRequest<R> implements ReadRequest<R> {
  readonly promise: Promise<ReadableStreamReadResult<R>>;
  declare resolve: (result: ReadableStreamReadResult<R>) => void;
  declare reject: (reason: unknown) => void;

  constructor() {
    this.promise = new PromiseCtor<ReadableStreamReadResult<R>>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  chunkSteps(chunk: R): void {
    this.resolve({ value: chunk, done: false });
  }

  closeSteps(): void {
    this.resolve({ value: undefined, done: true });
  }

  errorSteps(error: unknown): void {
    this.reject(error);
  }
}

/**
 * Reads chunks from a locked `ReadableStream`.
 * @example
 * ```ts
 * const reader = ReadableStream.from(["a", "b"]).getReader();
 * for (let r = await reader.read(); !r.done; r = await reader.read()) console.log(r.value);
 * reader.releaseLock();
 * ```
 */
export class ReadableStreamDefaultReader<R = unknown> {
  /** @internal [[stream]] */
  declare _ownerReadableStream: ReadableStream<R> | undefined;
  /** @internal [[closedPromise]] */
  declare _closedPromise: LazyDeferred<undefined>;
  /** @internal [[readRequests]] */
  declare _readRequests: SimpleQueue<ReadRequest<R>>;

  constructor(stream: ReadableStream<R>) {
    assertRequiredArgument(stream, 1, "ReadableStreamDefaultReader");
    if (!isReadableStream(stream)) {
      throw new TypeError("Cannot construct ReadableStreamDefaultReader: first parameter is not a ReadableStream");
    }
    SetUpReadableStreamDefaultReader(this, stream as ReadableStream<R>);
  }

  /** Fulfils when the stream closes, rejects when it errors or the lock is released. */
  get closed(): Promise<void> {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(readerBrandCheckError("closed"));
    return this._closedPromise.promise;
  }

  /** Cancels the stream (same as `stream.cancel` for the lock holder). */
  cancel(reason: unknown = undefined): Promise<void> {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(readerBrandCheckError("cancel"));
    if (this._ownerReadableStream === undefined) return promiseRejectedWith(releasedError("cancel"));
    return ReadableStreamReaderGenericCancel(this, reason);
  }

  /** Reads the next chunk. */
  read(): Promise<ReadableStreamReadResult<R>> {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(readerBrandCheckError("read"));
    const stream = this._ownerReadableStream;
    if (stream === undefined) return promiseRejectedWith(releasedError("read from"));
    if (stream._state === "readable") {
      // ReadableStreamDefaultReaderRead for a readable stream, its [[PullSteps]] served at once when a chunk is
      // queued (then no read request is made, and no promise waits to be settled).
      stream._disturbed = true;
      const controller = stream._readableStreamController;
      const fast = controller[tryDequeue]();
      if (fast !== NO_CHUNK) return promiseResolvedWith({ value: fast as R, done: false });
      const readRequest = new PromiseReadRequest<R>();
      controller[PullSteps](readRequest as ReadRequest<never>);
      return readRequest.promise;
    }
    const readRequest = new PromiseReadRequest<R>();
    ReadableStreamDefaultReaderRead(this, readRequest);
    return readRequest.promise;
  }

  /** Releases the reader's lock; pending reads reject with a `TypeError`. */
  releaseLock(): void {
    if (!isReadableStreamDefaultReader(this)) throw readerBrandCheckError("releaseLock");
    if (this._ownerReadableStream === undefined) return;
    ReadableStreamDefaultReaderRelease(this);
  }

  /**
   * Non-standard (drainpipe): resolves with every chunk available without waiting, up to soft caps; waits for
   * the first chunk like `read()` when none is. Non-enumerable, so it stays out of the standard interface's
   * members; feature-detect with `typeof reader.readMany === "function"`. See `./fast-paths/read-many.ts`.
   * @example
   * ```ts
   * declare const stream: ReadableStream<Uint8Array>;
   * const reader = stream.getReader();
   * let total = 0;
   * for (;;) {
   *   const { chunks, done } = await reader.readMany({ maxChunks: 4096 });
   *   for (const chunk of chunks) total += chunk.byteLength;
   *   if (done) break;
   * }
   * ```
   */
  readMany(options: ReadManyOptions | undefined = undefined): Promise<ReadManyResult<R>> {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(readerBrandCheckError("readMany"));
    return readableStreamDefaultReaderReadMany<R>(this, options);
  }
}

makeEnumerable(ReadableStreamDefaultReader, ["closed", "cancel", "read", "releaseLock"]);
setToStringTag(ReadableStreamDefaultReader, "ReadableStreamDefaultReader");

function readerBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use ReadableStreamDefaultReader.prototype.${name}: receiver is not a ReadableStreamDefaultReader`,
  );
}

function releasedError(action: string): TypeError {
  return new TypeError(`Cannot ${action} a stream using a released reader`);
}

/** Marks the readers set up by {@link SetUpReadableStreamDefaultReader} (a per-chunk check in `read`). */
const readerBrand = createBrand();

/** Brand check for `ReadableStreamDefaultReader`. */
export function isReadableStreamDefaultReader(value: unknown): value is ReadableStreamDefaultReader<unknown> {
  return readerBrand.has(value);
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreadererrorreadrequests | ReadableStreamDefaultReaderErrorReadRequests}. */
export function ReadableStreamDefaultReaderErrorReadRequests<R>(
  reader: ReadableStreamDefaultReader<R>,
  error: unknown,
): void {
  const readRequests = reader._readRequests;
  if (readRequests.length === 0) return;
  reader._readRequests = new SimpleQueue();
  readRequests.forEach((request) => {
    request.errorSteps(error);
  });
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-default-reader-read | ReadableStreamDefaultReaderRead}. */
export function ReadableStreamDefaultReaderRead<R>(
  reader: ReadableStreamDefaultReader<R>,
  readRequest: ReadRequest<R>,
): void {
  const stream = reader._ownerReadableStream as ReadableStream<R>;
  stream._disturbed = true;
  if (stream._state === "closed") {
    readRequest.closeSteps();
  } else if (stream._state === "errored") {
    readRequest.errorSteps(stream._storedError);
  } else {
    stream._readableStreamController[PullSteps](readRequest as ReadRequest<never>);
  }
}

/**
 * Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreaderrelease | ReadableStreamDefaultReaderRelease}.
 * An internal reader passes `internalError` (see `internalReaderReleasedError`), which then also fails its pending
 * reads: they are its own owner's.
 */
export function ReadableStreamDefaultReaderRelease<R>(
  reader: ReadableStreamDefaultReader<R>,
  internalError: TypeError | undefined = undefined,
): void {
  ReadableStreamReaderGenericRelease(reader, internalError);
  // The TypeError reaches only the pending reads: with none, nobody could see it, and it is not made (an error
  // captures a stack trace, the dearest step of a release).
  if (reader._readRequests.length === 0) return;
  ReadableStreamDefaultReaderErrorReadRequests(
    reader,
    internalError ?? new TypeError("Cannot finish the read: the reader's lock was released"),
  );
}

/** Implements {@link https://streams.spec.whatwg.org/#set-up-readable-stream-default-reader | SetUpReadableStreamDefaultReader}. */
export function SetUpReadableStreamDefaultReader<R>(
  reader: ReadableStreamDefaultReader<R>,
  stream: ReadableStream<R>,
): void {
  if (IsReadableStreamLocked(stream)) {
    throw new TypeError("Cannot get a reader: the stream is already locked");
  }
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader._readRequests = new SimpleQueue();
  readerBrand.stamp(reader);
}
