/**
 * Promise helpers for the stream abstract operations.
 *
 * The intrinsics are captured when the module loads, so user code that later patches `Promise.prototype.then`
 * or the global `Promise` cannot observe or disturb the internals (the specification requires this).
 * @module
 */

const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const promiseResolve = Promise.resolve.bind(Promise);
const promiseReject = Promise.reject.bind(Promise);

/** Does nothing; used to mark promises as handled. */
function noop(): void {}

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
 * A settleable promise that is only materialised when someone asks for it, and that internal code can react to
 * with plain callbacks (queued as microtasks, at the same moments promise reactions would run). Used for the
 * writer's `ready`/`closed` and the transform stream's backpressure signal, which change once per chunk but are
 * rarely observed by user code. Rejections are always marked as handled, as the specification does for these.
 */
export class LazyDeferred<T> {
  /** "pending", "fulfilled" or "rejected". */
  state: "pending" | "fulfilled" | "rejected" = "pending";
  private result: unknown = undefined;
  private materialised: Promise<T> | undefined = undefined;
  private resolveFn: ((value: T) => void) | undefined = undefined;
  private rejectFn: ((reason: unknown) => void) | undefined = undefined;
  private onFulfilled: (() => void) | (() => void)[] | undefined = undefined;
  private onRejected: ((reason: unknown) => void) | ((reason: unknown) => void)[] | undefined = undefined;
  private observer: (() => void) | undefined = undefined;
  private rejectionObserver: ((reason: unknown) => void) | undefined = undefined;

  /** The promise; created on first access. */
  get promise(): Promise<T> {
    let promise = this.materialised;
    if (promise === undefined) {
      if (this.state === "fulfilled") {
        promise = promiseResolve(this.result as T);
      } else if (this.state === "rejected") {
        promise = promiseReject(this.result) as Promise<T>;
        promiseThen.call(promise, undefined, noop);
      } else {
        promise = new PromiseCtor<T>((resolve, reject) => {
          this.resolveFn = resolve;
          this.rejectFn = reject;
        });
        promiseThen.call(promise, undefined, noop);
      }
      this.materialised = promise;
    }
    return promise;
  }

  /** Fulfils if still pending. */
  resolve(value: T): void {
    if (this.state !== "pending") return;
    this.state = "fulfilled";
    this.result = value;
    if (this.resolveFn !== undefined) this.resolveFn(value);
    const callbacks = this.onFulfilled;
    const observer = this.observer;
    this.onFulfilled = undefined;
    this.onRejected = undefined;
    this.observer = undefined;
    this.rejectionObserver = undefined;
    if (callbacks !== undefined) {
      if (typeof callbacks === "function") queueMicrotaskInternal(callbacks);
      else for (const callback of callbacks) queueMicrotaskInternal(callback);
    }
    if (observer !== undefined) observer();
  }

  /** Rejects (marked as handled) if still pending. */
  reject(reason: unknown): void {
    if (this.state !== "pending") return;
    this.state = "rejected";
    this.result = reason;
    if (this.rejectFn !== undefined) this.rejectFn(reason);
    const callbacks = this.onRejected;
    const rejectionObserver = this.rejectionObserver;
    this.onFulfilled = undefined;
    this.onRejected = undefined;
    this.observer = undefined;
    this.rejectionObserver = undefined;
    if (rejectionObserver !== undefined) queueMicrotaskInternal(() => rejectionObserver(reason));
    if (callbacks === undefined) return;
    if (typeof callbacks === "function") queueMicrotaskInternal(() => callbacks(reason));
    else for (const callback of callbacks) queueMicrotaskInternal(() => callback(reason));
  }

  /** Reacts like `then(onFulfilled, onRejected)` would, without creating promises. */
  react(onFulfilled: () => void, onRejected?: (reason: unknown) => void): void {
    if (this.state === "fulfilled") {
      queueMicrotaskInternal(onFulfilled);
      return;
    }
    if (this.state === "rejected") {
      if (onRejected !== undefined) {
        const reason = this.result;
        queueMicrotaskInternal(() => onRejected(reason));
      }
      return;
    }
    const fulfilled = this.onFulfilled;
    this.onFulfilled =
      fulfilled === undefined
        ? onFulfilled
        : typeof fulfilled === "function"
          ? [fulfilled, onFulfilled]
          : [...fulfilled, onFulfilled];
    if (onRejected !== undefined) {
      const rejected = this.onRejected;
      this.onRejected =
        rejected === undefined
          ? onRejected
          : typeof rejected === "function"
            ? [rejected, onRejected]
            : [...rejected, onRejected];
    }
  }

  /**
   * Runs `onFulfilled` synchronously when the pending deferred is fulfilled; `onRejected`, if given, reacts to a
   * rejection as {@link LazyDeferred.react} would (on a microtask). Only for internal parties whose timing nobody
   * can observe; one observer at a time: returns false (and registers nothing) when the deferred is settled or
   * already observed.
   */
  observeFulfilment(onFulfilled: () => void, onRejected: ((reason: unknown) => void) | undefined = undefined): boolean {
    if (this.state !== "pending" || this.observer !== undefined) return false;
    this.observer = onFulfilled;
    this.rejectionObserver = onRejected;
    return true;
  }

  /**
   * Makes a fulfilled deferred pending again, when that is unobservable (its promise was never materialised);
   * returns false otherwise. Saves an allocation each time backpressure flips.
   */
  rearm(): boolean {
    if (this.state !== "fulfilled" || this.materialised !== undefined) return false;
    this.state = "pending";
    this.result = undefined;
    return true;
  }

  /** A new deferred that is already fulfilled with `value`. */
  static resolved<T>(value: T): LazyDeferred<T> {
    const deferred = new LazyDeferred<T>();
    deferred.resolve(value);
    return deferred;
  }

  /** A new deferred that is already rejected (and handled) with `reason`. */
  static rejected<T>(reason: unknown): LazyDeferred<T> {
    const deferred = new LazyDeferred<T>();
    deferred.reject(reason);
    return deferred;
  }
}

/**
 * The outcome of an internal algorithm: a promise, a {@link LazyDeferred}, or `undefined` for "already fulfilled
 * with undefined" (the common case of a synchronous underlying source, sink or transformer), which saves the
 * promise WebIDL would wrap it in.
 */
export type Completion = Promise<unknown> | LazyDeferred<undefined> | undefined;

/**
 * "Upon fulfilment / rejection" of a {@link Completion}; `undefined` reacts on the next microtask, like a resolved
 * promise.
 */
export function reactTo(completion: Completion, onFulfilled: () => void, onRejected: (reason: unknown) => void): void {
  if (completion === undefined) queueMicrotaskInternal(onFulfilled);
  else if (completion instanceof LazyDeferred) completion.react(onFulfilled, onRejected);
  else promiseThen.call(completion, onFulfilled, onRejected);
}

/** The promise form of a {@link Completion}. */
export function completionToPromise(completion: Completion): Promise<unknown> {
  if (completion === undefined) return promiseResolve(undefined);
  if (completion instanceof LazyDeferred) return completion.promise;
  return completion;
}

/**
 * Invokes a user callback as a promise-returning WebIDL operation, but reports a synchronous `undefined` result
 * as the `undefined` {@link Completion} instead of wrapping it in a promise.
 */
export function callForCompletion(fn: (...args: never[]) => unknown, thisArg: unknown, arg: unknown): Completion {
  try {
    const result = Reflect.apply(fn, thisArg, [arg]);
    return result === undefined ? undefined : promiseResolvedWith(result);
  } catch (error) {
    return promiseReject(error);
  }
}

/**
 * {@link callForCompletion} for the callbacks that take a chunk and the controller: a sink's `write` and
 * `writev`, a transformer's `transform`.
 */
export function callWithChunkForCompletion(
  fn: (...args: never[]) => unknown,
  thisArg: unknown,
  chunk: unknown,
  controller: unknown,
): Completion {
  try {
    const result = Reflect.apply(fn, thisArg, [chunk, controller]);
    return result === undefined ? undefined : promiseResolvedWith(result);
  } catch (error) {
    return promiseReject(error);
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
    return promiseResolvedWith(Reflect.apply(fn, thisArg, args));
  } catch (error) {
    return promiseReject(error);
  }
}

/**
 * Queues a microtask as a reaction to an already-fulfilled promise. Same timing as `queueMicrotask`, but much
 * cheaper on Node, whose `queueMicrotask` wraps every callback in an async resource.
 */
export function queueMicrotaskInternal(callback: () => void): void {
  promiseThen.call(resolvedUndefined, callback);
}
