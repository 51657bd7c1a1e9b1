/**
 * Keys of drainpipe's own controller methods (not in the standard): synchronous forms of [[PullSteps]] for reads
 * that a queued chunk can serve at once.
 * @module
 */

/**
 * Fast path of [[PullSteps]] for a default reader's `read()`: when the controller can hand out a queued
 * chunk synchronously it does exactly what [[PullSteps]] would and returns the chunk, otherwise it changes
 * nothing and returns {@link NO_CHUNK}.
 */
export const tryDequeue: unique symbol = Symbol("tryDequeue");
/** Sentinel returned by the `[tryDequeue]` method when it cannot serve a read synchronously. */
export const NO_CHUNK: unique symbol = Symbol("NO_CHUNK");
/**
 * Range form of the `[tryDequeue]` method for a default controller: dequeues the `count` oldest chunks
 * (`count` must not exceed the queue's length) and runs the after-dequeue steps once. Callers use it only where that is
 * equivalent to `count` single dequeues (see `synchronous-drain.ts`).
 */
export const dequeueMany: unique symbol = Symbol("dequeueMany");
