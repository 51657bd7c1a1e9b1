/**
 * The `ReadableStreamGenericReader` mixin's abstract operations, shared by default and BYOB readers.
 * @module
 */

import { debugAssert } from "../base/assert.ts";
import { LazyDeferred } from "../base/completion.ts";
import { ReleaseSteps } from "../standard/readable-stream-controller-steps.ts";
import { type ReadableStream, ReadableStreamCancel, type ReadableStreamReader } from "./readable-stream.ts";

/** The internal slots both reader classes carry. */
export interface GenericReaderSlots<R> {
  /** @internal [[stream]] */
  _ownerReadableStream: ReadableStream<R> | undefined;
  /**
   * @internal [[closedPromise]]: made only when `closed` is asked for (or by an internal party), as most readers'
   * never are; every rejection of it is marked as handled, as the standard does each time.
   */
  _closedPromise: LazyDeferred<undefined>;
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel | ReadableStreamReaderGenericCancel}. */
export function ReadableStreamReaderGenericCancel<R>(
  reader: GenericReaderSlots<R>,
  reason: unknown,
): Promise<undefined> {
  return ReadableStreamCancel(reader._ownerReadableStream as ReadableStream<R>, reason);
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize | ReadableStreamReaderGenericInitialize}. */
export function ReadableStreamReaderGenericInitialize<R>(
  reader: ReadableStreamReader<R>,
  stream: ReadableStream<R>,
): void {
  DEBUG: debugAssert(
    (stream._readableStreamController as { _pipedFrom?: boolean })._pipedFrom !== true,
    "_pipedFrom is still set from a pipe that no longer holds the stream",
  );
  reader._ownerReadableStream = stream as never;
  stream._reader = reader;
  const closed = new LazyDeferred<undefined>();
  reader._closedPromise = closed;
  if (stream._state === "closed") {
    closed.resolve(undefined);
  } else if (stream._state === "errored") {
    closed.reject(stream._storedError);
  }
}

/** What a released reader's promises reject with. */
const READER_RELEASED = "Cannot use the reader: its lock on the stream has been released";

/**
 * The TypeError a release rejects an internal reader's promises with (the reader of a pipe or of an async
 * iterator): nobody outside drainpipe holds those promises, and their internal reactions ignore the reason, so one
 * error made once serves every release instead of a new one with a stack trace each time.
 */
export const internalReaderReleasedError: TypeError = new TypeError(READER_RELEASED);

/**
 * Implements {@link https://streams.spec.whatwg.org/#readable-stream-reader-generic-release | ReadableStreamReaderGenericRelease}.
 * `error` is the TypeError the closed promise rejects with: a new one unless the reader is internal (see
 * {@link internalReaderReleasedError}).
 */
export function ReadableStreamReaderGenericRelease<R>(
  reader: GenericReaderSlots<R>,
  error: TypeError = new TypeError(READER_RELEASED),
): void {
  const stream = reader._ownerReadableStream as ReadableStream<R>;
  if (stream._state === "readable") {
    reader._closedPromise.reject(error);
  } else {
    reader._closedPromise = LazyDeferred.rejected(error);
  }
  stream._readableStreamController[ReleaseSteps]();
  stream._reader = undefined;
  reader._ownerReadableStream = undefined;
}
