/**
 * ReadableStreamFromIterable (behind `ReadableStream.from`), with the async-from-sync iterator adaptation
 * ECMAScript's GetIterator(obj, async) performs for sync iterables.
 * @module
 */

import {
  PromiseCtor,
  promiseRejectedWith,
  promiseResolvedWith,
  resolvedUndefined,
  transformPromiseWith,
} from "../base/promise-helpers.ts";
import { isObject } from "../standard/webidl.ts";
import { CreateReadableStream, type ReadableStream } from "./readable-stream.ts";
import {
  type ReadableStreamDefaultController,
  ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerEnqueue,
} from "./readable-stream-default-controller.ts";

function getMethod(object: unknown, key: symbol | string): ((...args: unknown[]) => unknown) | undefined {
  const method = (Object(object) as Record<symbol | string, unknown>)[key];
  if (method === undefined || method === null) return undefined;
  if (typeof method !== "function") throw new TypeError(`Cannot iterate: ${String(key)} is not a function`);
  return method as (...args: unknown[]) => unknown;
}

function iteratorFromMethod(
  object: unknown,
  method: (...args: unknown[]) => unknown,
): { iterator: object; next: unknown } {
  const iterator = Reflect.apply(method, object, []);
  if (!isObject(iterator)) throw new TypeError("Cannot iterate: the iterator method did not return an object");
  return { iterator, next: (iterator as { next?: unknown }).next };
}

/** IteratorComplete and IteratorValue of a sync iterator's result, which must be an object. */
function completeAndValue(result: unknown): { done: boolean; value: unknown } {
  if (!isObject(result)) throw new TypeError("Cannot iterate: the iterator result is not an object");
  const done = Boolean((result as IteratorResult<unknown>).done);
  return { done, value: (result as IteratorResult<unknown>).value };
}

function asyncFromSyncContinuation(result: unknown, iterator: object, closeOnRejection: boolean): Promise<unknown> {
  const { done, value } = completeAndValue(result);
  return awaitedIterResult(done, value, iterator, closeOnRejection);
}

/** The async-from-sync iterator's result for `done` and `value`: `value` awaited, as a promise. */
function awaitedIterResult(
  done: boolean,
  value: unknown,
  iterator: object,
  closeOnRejection: boolean,
): Promise<unknown> {
  let valueWrapper: Promise<unknown>;
  try {
    valueWrapper = promiseResolvedWith(value);
  } catch (error) {
    if (!done && closeOnRejection) closeSyncIterator(iterator);
    throw error;
  }
  return transformPromiseWith(
    valueWrapper,
    (v) => ({ value: v, done }),
    (reason) => {
      if (!done && closeOnRejection) closeSyncIterator(iterator);
      throw reason;
    },
  );
}

function closeSyncIterator(iterator: object): void {
  try {
    const returnMethod = getMethod(iterator, "return");
    if (returnMethod !== undefined) Reflect.apply(returnMethod, iterator, []);
  } catch {
    // IteratorClose with a throw completion keeps the original error.
  }
}

/**
 * An iterator record as GetIterator(obj, async) gives it: the iterator and its `next` method, read once; a sync
 * iterator is adapted as the async-from-sync iterator would adapt it. Its methods are a class's, not functions made
 * per stream: bundlers that keep names (esbuild's `keepNames`, on in wrangler) define a `name` on each function a
 * named binding or property holds when it is made.
 */
class AsyncIteratorRecord {
  private readonly iterator: object;
  private readonly nextMethod: unknown;
  /** The iterator is a sync one, adapted. */
  private readonly sync: boolean;

  constructor(iterator: object, nextMethod: unknown, sync: boolean) {
    this.iterator = iterator;
    this.nextMethod = nextMethod;
    this.sync = sync;
  }

  /**
   * IteratorNext: the promise of the next iterator result (throws where IteratorNext would). For a sync iterator whose
   * result's value is not an object, which awaiting could not observe (no `then` to look up), its `done` and `value`
   * at once instead.
   */
  next(): { done: boolean; value: unknown } | Promise<unknown> {
    const iterator = this.iterator;
    const result = Reflect.apply(this.nextMethod as () => unknown, iterator, []);
    if (!this.sync) return promiseResolvedWith(result);
    const { done, value } = completeAndValue(result);
    if (!isObject(value)) return { done, value };
    return awaitedIterResult(done, value, iterator, true);
  }

  /** The iterator's `return(reason)`, as a promise; `undefined` when an async iterator has none. */
  return(reason: unknown): Promise<unknown> | undefined {
    const iterator = this.iterator;
    if (!this.sync) {
      const returnMethod = getMethod(iterator, "return");
      if (returnMethod === undefined) return undefined;
      return promiseResolvedWith(Reflect.apply(returnMethod, iterator, [reason]));
    }
    try {
      const returnMethod = getMethod(iterator, "return");
      if (returnMethod === undefined) return promiseResolvedWith({ value: reason, done: true });
      const result = Reflect.apply(returnMethod, iterator, [reason]);
      if (!isObject(result)) throw new TypeError("Cannot cancel: the iterator's return() result is not an object");
      return asyncFromSyncContinuation(result, iterator, false);
    } catch (error) {
      return promiseRejectedWith(error);
    }
  }
}

/**
 * Web IDL's conversion to `async_sequence<any>` (`from`'s argument type since whatwg/streams#1372), then
 * GetIterator(obj, async): an async iterator record, adapting sync iterables. Only an object converts: a string, and
 * any other primitive, is a TypeError, although a string is iterable.
 */
function getAsyncIterator(iterable: unknown): AsyncIteratorRecord {
  if (!isObject(iterable)) {
    const kind = iterable === null ? "null" : typeof iterable;
    throw new TypeError(`Cannot create a stream: the argument is ${kind}, not an iterable object`);
  }
  const asyncMethod = getMethod(iterable, Symbol.asyncIterator);
  if (asyncMethod !== undefined) {
    const { iterator, next } = iteratorFromMethod(iterable, asyncMethod);
    return new AsyncIteratorRecord(iterator, next, false);
  }
  const syncMethod = getMethod(iterable, Symbol.iterator);
  if (syncMethod === undefined) throw new TypeError("Cannot create a stream: the argument is not iterable");
  const { iterator, next } = iteratorFromMethod(iterable, syncMethod);
  return new AsyncIteratorRecord(iterator, next, true);
}

/** The start algorithm: nothing to start. */
function startNothing(): undefined {
  return undefined;
}

/**
 * The pull algorithm: the next iterator result, enqueued, or the stream closed when the iterator is done. A sync
 * iterator's result whose value is not an object is handled within the pull, which then completes at once: awaiting
 * such a value can neither fail nor call anything, so only the number of promise jobs differs from the
 * async-from-sync iterator's path, and a chunk is ready for the read that pulled it without a promise per item.
 */
function pullFromIterator<R>(
  iteratorRecord: AsyncIteratorRecord,
  stream: ReadableStream<R>,
): Promise<unknown> | undefined {
  let nextPromise: Promise<unknown>;
  try {
    const next = iteratorRecord.next();
    if (!(next instanceof PromiseCtor)) {
      const controller = stream._readableStreamController as ReadableStreamDefaultController<R>;
      if (next.done) ReadableStreamDefaultControllerClose(controller);
      else ReadableStreamDefaultControllerEnqueue(controller, next.value as R);
      return undefined;
    }
    nextPromise = next;
  } catch (error) {
    return promiseRejectedWith(error);
  }
  return transformPromiseWith(nextPromise, (iterResult) => {
    if (!isObject(iterResult)) throw new TypeError("Cannot read from the iterator: its result is not an object");
    const controller = stream._readableStreamController as ReadableStreamDefaultController<R>;
    if ((iterResult as IteratorResult<R>).done) {
      ReadableStreamDefaultControllerClose(controller);
    } else {
      ReadableStreamDefaultControllerEnqueue(controller, (iterResult as IteratorResult<R>).value);
    }
  });
}

/** The cancel algorithm: the iterator's `return(reason)`, whose result must be an object. */
function cancelIterator(iteratorRecord: AsyncIteratorRecord, reason: unknown): Promise<unknown> {
  let returnPromise: Promise<unknown> | undefined;
  try {
    returnPromise = iteratorRecord.return(reason);
  } catch (error) {
    return promiseRejectedWith(error);
  }
  if (returnPromise === undefined) return resolvedUndefined;
  return transformPromiseWith(returnPromise, (returnResult) => {
    if (!isObject(returnResult))
      throw new TypeError("Cannot cancel the iterator: its return() result is not an object");
    return undefined;
  });
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-from-iterable | ReadableStreamFromIterable}. */
export function ReadableStreamFromIterable<R>(asyncIterable: unknown): ReadableStream<R> {
  const iteratorRecord = getAsyncIterator(asyncIterable);
  // The algorithms run only after the start algorithm's microtask, once `stream` is set.
  const stream: ReadableStream<R> = CreateReadableStream<R>(
    startNothing,
    () => pullFromIterator(iteratorRecord, stream),
    (reason) => cancelIterator(iteratorRecord, reason),
    0,
  );
  return stream;
}
