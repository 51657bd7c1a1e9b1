/**
 * Keys of the internal methods every readable stream controller implements ([[CancelSteps]], [[PullSteps]],
 * [[ReleaseSteps]]). Symbols keep them off the public surface of the controller classes.
 * @module
 */

/** [[CancelSteps]](reason): returns a promise for the source's cancellation. */
export const CancelSteps: unique symbol = Symbol("CancelSteps");
/** [[PullSteps]](readRequest): serves a default reader's read. */
export const PullSteps: unique symbol = Symbol("PullSteps");
/** [[ReleaseSteps]](): called when a reader releases its lock. */
export const ReleaseSteps: unique symbol = Symbol("ReleaseSteps");
/**
 * Fast path of [[PullSteps]] for a default reader's `read()`: when the controller can hand out a queued
 * chunk synchronously it does exactly what [[PullSteps]] would and returns the chunk, otherwise it changes
 * nothing and returns {@link NO_CHUNK}.
 */
export const TryDequeue: unique symbol = Symbol("TryDequeue");
/** Sentinel returned by [[TryDequeue]] when it cannot serve a read synchronously. */
export const NO_CHUNK: unique symbol = Symbol("NO_CHUNK");
/**
 * Range form of [[TryDequeue]] for a default controller: dequeues the `count` oldest chunks (`count` must not
 * exceed the queue's length) and runs the after-dequeue steps once. Callers use it only where that is
 * equivalent to `count` single dequeues (see `read-many.ts`).
 */
export const DequeueMany: unique symbol = Symbol("DequeueMany");
