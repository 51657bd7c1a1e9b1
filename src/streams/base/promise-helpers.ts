/**
 * WebIDL's promise helpers for the stream abstract operations ("a new promise", "a promise resolved with",
 * "upon fulfilment", ...). drainpipe's cheaper completions, which avoid a promise where nobody can observe one,
 * are in `completion.ts` beside this file.
 *
 * The intrinsics are captured when the module loads, so user code that later patches `Promise.prototype.then`
 * or the global `Promise` cannot observe or disturb the internals (the specification requires this).
 * @module
 */

/** The `Promise` constructor, as the module loaded. */
export const PromiseCtor = Promise;
/** `Promise.prototype.then`, as the module loaded (call it with `.call`). */
export const promiseThen = Promise.prototype.then;
/** `Promise.resolve`, as the module loaded. */
export const promiseResolve = Promise.resolve.bind(Promise);
/** `Promise.reject`, as the module loaded. */
export const promiseReject = Promise.reject.bind(Promise);

/** `Reflect.apply`, as the module loaded. */
const reflectApply = Reflect.apply;

/**
 * Calls `fn` with `thisArg` and `args` as WebIDL invokes a callback: a plain [[Call]], with no lookup of `call` or
 * `apply` that user code could intercept. The arguments arrive as a rest parameter and go straight to
 * `Reflect.apply`, which JavaScriptCore then compiles as a direct call; given an array literal it allocates the
 * array and makes a varargs call instead (Bun 1.4: about 18 ns against 3 ns a call). V8 compiles both forms alike.
 */
export function callWith(fn: (...args: never[]) => unknown, thisArg: unknown, ...args: unknown[]): unknown {
  return reflectApply(fn as (...args: unknown[]) => unknown, thisArg, args);
}

/** Does nothing; used to mark promises as handled. */
export function noop(): void {}

/**
 * A promise together with its resolving functions, as the specification's "a new promise" plus the two
 * internal slots that settle it.
 */
export class Deferred<T> {
  /** The promise itself. */
  readonly promise: Promise<T>;
  /** Fulfils {@link Deferred.promise}. */
  resolve!: (value: T | PromiseLike<T>) => void;
  /** Rejects {@link Deferred.promise}. */
  reject!: (reason: unknown) => void;

  constructor() {
    this.promise = new PromiseCtor<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

/**
 * WebIDL's "a promise resolved with" `value`: always a new promise. `Promise.resolve` would hand back a native
 * promise itself, so those are adopted by a fresh promise (a few microtasks later, as WebIDL specifies); any
 * other value goes through `Promise.resolve`, which does the same thenable check as resolving a new promise.
 */
export function promiseResolvedWith<T>(value: T | PromiseLike<T>): Promise<T> {
  if (value instanceof PromiseCtor) {
    return new PromiseCtor<T>((resolve) => resolve(value));
  }
  return promiseResolve(value);
}

/** "A promise rejected with" `reason`. */
export function promiseRejectedWith<T = never>(reason: unknown): Promise<T> {
  return promiseReject(reason) as Promise<T>;
}

/** A shared promise fulfilled with `undefined`; never handed out where identity is observable. */
export const resolvedUndefined: Promise<undefined> = promiseResolve(undefined);

/** "Upon fulfilment / rejection" with the original `then`, returning the derived promise. */
export function transformPromiseWith<T, R>(
  promise: Promise<T>,
  onFulfilled?: (value: T) => R | PromiseLike<R>,
  onRejected?: (reason: unknown) => R | PromiseLike<R>,
): Promise<R> {
  return promiseThen.call(promise, onFulfilled, onRejected) as Promise<R>;
}

/**
 * "React to" a promise without observing the result. With both reactions the derived promise cannot reject
 * (the reactions are internal steps that do not throw), so it needs no handler of its own.
 */
export function uponPromise<T>(
  promise: Promise<T>,
  onFulfilled?: (value: T) => unknown,
  onRejected?: (reason: unknown) => unknown,
): void {
  if (onRejected === undefined) {
    promiseThen.call(promiseThen.call(promise, onFulfilled), undefined, noop);
  } else {
    promiseThen.call(promise, onFulfilled, onRejected);
  }
}

/** "Upon rejection" only. */
export function uponRejection(promise: Promise<unknown>, onRejected: (reason: unknown) => unknown): void {
  uponPromise(promise, undefined, onRejected);
}

/** Sets a promise's [[PromiseIsHandled]] to true so its rejection is never reported as unhandled. */
export function setPromiseIsHandledToTrue(promise: Promise<unknown>): void {
  promiseThen.call(promise, undefined, noop);
}

/**
 * Calls `fn` with `args` and returns "a promise resolved with" the result, or a rejected promise if it throws,
 * as WebIDL does for a callback whose return type is a promise.
 */
export function promiseCall<A extends unknown[]>(
  fn: (...args: A) => unknown,
  thisArg: unknown,
  ...args: A
): Promise<unknown> {
  try {
    return promiseResolvedWith(reflectApply(fn, thisArg, args));
  } catch (error) {
    return promiseReject(error);
  }
}

/**
 * Queues a microtask as a reaction to an already-fulfilled promise. Same timing as `queueMicrotask`, but much
 * cheaper on Node, whose `queueMicrotask` wraps every callback in an async resource.
 */
export function queueMicrotaskInternal(callback: () => void): void {
  reactionToResolved(callback);
}

/**
 * The promise of a reaction to a promise already fulfilled with `undefined`: one promise, settled one job from now
 * with what `onFulfilled` returns (with `undefined` when there is none), never rejected unless `onFulfilled` throws.
 */
export function reactionToResolved<R = undefined>(onFulfilled?: () => R): Promise<R> {
  return promiseThen.call(resolvedUndefined, onFulfilled) as Promise<R>;
}
