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
