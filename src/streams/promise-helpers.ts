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

/** A {@link Deferred} that remembers whether it has settled (for the writer's `ready` and `closed`). */
export class TrackedDeferred<T> {
  /** The promise itself. */
  promise: Promise<T>;
  /** "pending", "fulfilled" or "rejected". */
  state: "pending" | "fulfilled" | "rejected" = "pending";
  private resolveFn!: (value: T) => void;
  private rejectFn!: (reason: unknown) => void;

  constructor() {
    this.promise = new PromiseCtor<T>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
  }

  /** Fulfils the promise if it is still pending. */
  resolve(value: T): void {
    if (this.state !== "pending") return;
    this.state = "fulfilled";
    this.resolveFn(value);
  }

  /** Rejects the promise (marked as handled) if it is still pending. */
  reject(reason: unknown): void {
    if (this.state !== "pending") return;
    this.state = "rejected";
    this.rejectFn(reason);
    promiseThen.call(this.promise, undefined, noop);
  }

  /** A new deferred that is already fulfilled with `value`. */
  static resolved<T>(value: T): TrackedDeferred<T> {
    const deferred = new TrackedDeferred<T>();
    deferred.resolve(value);
    return deferred;
  }

  /** A new deferred that is already rejected (and handled) with `reason`. */
  static rejected<T>(reason: unknown): TrackedDeferred<T> {
    const deferred = new TrackedDeferred<T>();
    deferred.reject(reason);
    return deferred;
  }
}

/** "A new promise": returns a fresh promise with its resolving functions. */
export function newPromise<T>(): Deferred<T> {
  return new Deferred<T>();
}

/**
 * WebIDL's "a promise resolved with" `value`: always a new promise. For an object (possibly a thenable) that
 * means resolving a fresh promise with it, which adopts its state a few microtasks later, as WebIDL specifies;
 * primitives take the cheaper `Promise.resolve`.
 */
export function promiseResolvedWith<T>(value: T | PromiseLike<T>): Promise<T> {
  if ((typeof value === "object" && value !== null) || typeof value === "function") {
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

/** "Upon fulfilment" only; rejections pass through to a handled derived promise. */
export function uponFulfillment<T>(promise: Promise<T>, onFulfilled: (value: T) => unknown): void {
  uponPromise(promise, onFulfilled);
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

/** True when `value` is a native promise created by this realm's `Promise`. */
export function isPromise(value: unknown): value is Promise<unknown> {
  return value instanceof PromiseCtor;
}

const queueMicrotaskImpl: (callback: () => void) => void =
  typeof globalThis.queueMicrotask === "function"
    ? globalThis.queueMicrotask.bind(globalThis)
    : (callback) => {
        promiseThen.call(resolvedUndefined, callback);
      };

/** Queues a microtask (captured at load time). */
export function queueMicrotaskInternal(callback: () => void): void {
  queueMicrotaskImpl(callback);
}
