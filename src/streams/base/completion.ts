/**
 * drainpipe's completions (not in the standard): the outcome of an internal algorithm as a promise, a
 * {@link LazyDeferred} that is only materialised as a promise when someone asks for it, or `undefined` for
 * "already fulfilled", so that a synchronous underlying source, sink or transformer costs no promise per call.
 * Reactions run at the moments the standard's promise reactions would.
 * @module
 */

import {
  callWith,
  noop,
  PromiseCtor,
  promiseReject,
  promiseResolve,
  promiseResolvedWith,
  promiseThen,
  queueMicrotaskInternal,
} from "./promise-helpers.ts";

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
        // Marked as handled when it is rejected (see reject), not here: a handler attached now would cost a
        // promise, and a reaction job when it is fulfilled, for every promise that never is rejected.
        promise = new PromiseCtor<T>((resolve, reject) => {
          this.resolveFn = resolve;
          this.rejectFn = reject;
        });
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
    if (this.rejectFn !== undefined) {
      // Handled in the same turn, before any host could report the rejection as unhandled.
      this.rejectFn(reason);
      promiseThen.call(this.materialised, undefined, noop);
    }
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
   * Whether the deferred is pending with `onFulfilled` (registered by {@link LazyDeferred.observeFulfilment}) as its
   * only party: no reactions, no promise handed out. Resolving it then runs `onFulfilled` and nothing else.
   */
  isObservedOnlyBy(onFulfilled: () => void): boolean {
    return (
      this.state === "pending" &&
      this.observer === onFulfilled &&
      this.onFulfilled === undefined &&
      this.materialised === undefined
    );
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
    const result = callWith(fn, thisArg, arg);
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
    const result = callWith(fn, thisArg, chunk, controller);
    return result === undefined ? undefined : promiseResolvedWith(result);
  } catch (error) {
    return promiseReject(error);
  }
}
