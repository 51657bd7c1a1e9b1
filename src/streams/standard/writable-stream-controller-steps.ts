/**
 * Keys of the writable stream controller's internal methods ([[AbortSteps]], [[ErrorSteps]]).
 * @module
 */

/** [[AbortSteps]](reason): aborts the sink and returns a promise for it. */
export const AbortSteps: unique symbol = Symbol("AbortSteps");
/** [[ErrorSteps]](): clears the queue when the stream errors. */
export const ErrorSteps: unique symbol = Symbol("ErrorSteps");
