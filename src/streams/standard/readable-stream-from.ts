/**
 * ReadableStreamFromIterable (behind `ReadableStream.from`), with the async-from-sync iterator adaptation
 * ECMAScript's GetIterator(obj, async) performs for sync iterables.
 * @module
 */

import {
  promiseRejectedWith,
  promiseResolvedWith,
  resolvedUndefined,
  transformPromiseWith,
} from "./promise-helpers.ts";
import { CreateReadableStream, type ReadableStream } from "./readable-stream.ts";
import {
  type ReadableStreamDefaultController,
  ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerEnqueue,
} from "./readable-stream-default-controller.ts";
import { isObject } from "./webidl.ts";

/** An iterator record: the iterator and its `next` method, read once. */
interface AsyncIteratorRecord {
  next(): Promise<unknown>;
  return(reason: unknown): Promise<unknown> | undefined;
}

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

function asyncFromSyncContinuation(result: unknown, iterator: object, closeOnRejection: boolean): Promise<unknown> {
  if (!isObject(result)) throw new TypeError("Cannot iterate: the iterator result is not an object");
  const done = Boolean((result as IteratorResult<unknown>).done);
  const value = (result as IteratorResult<unknown>).value;
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

/** GetIterator(obj, async): an async iterator record, adapting sync iterables. */
function getAsyncIterator(iterable: unknown): AsyncIteratorRecord {
  if (iterable === undefined || iterable === null) {
    throw new TypeError("Cannot create a stream: the argument is not iterable");
  }
  const asyncMethod = getMethod(iterable, Symbol.asyncIterator);
  if (asyncMethod !== undefined) {
    const { iterator, next } = iteratorFromMethod(iterable, asyncMethod);
    return {
      next: () => promiseResolvedWith(Reflect.apply(next as () => unknown, iterator, [])),
      return: (reason) => {
        const returnMethod = getMethod(iterator, "return");
        if (returnMethod === undefined) return undefined;
        return promiseResolvedWith(Reflect.apply(returnMethod, iterator, [reason]));
      },
    };
  }
  const syncMethod = getMethod(iterable, Symbol.iterator);
  if (syncMethod === undefined) throw new TypeError("Cannot create a stream: the argument is not iterable");
  const { iterator, next } = iteratorFromMethod(iterable, syncMethod);
  return {
    next: () => {
      try {
        const result = Reflect.apply(next as () => unknown, iterator, []);
        return asyncFromSyncContinuation(result, iterator, true);
      } catch (error) {
        return promiseRejectedWith(error);
      }
    },
    return: (reason) => {
      try {
        const returnMethod = getMethod(iterator, "return");
        if (returnMethod === undefined) return promiseResolvedWith({ value: reason, done: true });
        const result = Reflect.apply(returnMethod, iterator, [reason]);
        if (!isObject(result)) throw new TypeError("Cannot cancel: the iterator's return() result is not an object");
        return asyncFromSyncContinuation(result, iterator, false);
      } catch (error) {
        return promiseRejectedWith(error);
      }
    },
  };
}

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-from-iterable | ReadableStreamFromIterable}. */
export function ReadableStreamFromIterable<R>(asyncIterable: unknown): ReadableStream<R> {
  const iteratorRecord = getAsyncIterator(asyncIterable);
  let stream: ReadableStream<R> | undefined;
  const controllerOf = (): ReadableStreamDefaultController<R> =>
    (stream as ReadableStream<R>)._readableStreamController as ReadableStreamDefaultController<R>;
  const startAlgorithm = (): undefined => undefined;
  const pullAlgorithm = (): Promise<unknown> => {
    let nextPromise: Promise<unknown>;
    try {
      nextPromise = iteratorRecord.next();
    } catch (error) {
      return promiseRejectedWith(error);
    }
    return transformPromiseWith(nextPromise, (iterResult) => {
      if (!isObject(iterResult)) throw new TypeError("Cannot read from the iterator: its result is not an object");
      const done = Boolean((iterResult as IteratorResult<R>).done);
      if (done) {
        ReadableStreamDefaultControllerClose(controllerOf());
      } else {
        ReadableStreamDefaultControllerEnqueue(controllerOf(), (iterResult as IteratorResult<R>).value);
      }
    });
  };
  const cancelAlgorithm = (reason: unknown): Promise<unknown> => {
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
  };
  stream = CreateReadableStream<R>(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}
