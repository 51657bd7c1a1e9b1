/**
 * drainpipe's shortcut for enqueueing into a default controller (not in the standard): appends a chunk with size 1
 * when that is all ReadableStreamDefaultControllerEnqueue would do.
 * @module
 */

import { isCountOne } from "../../standard/queuing-strategy.ts";
import { ReadableStreamGetNumReadRequests } from "../readable-stream.ts";
import type { ReadableStreamDefaultController } from "../readable-stream-default-controller.ts";

/**
 * ReadableStreamDefaultControllerEnqueue for the common case, folded into a few field reads: when the stream can
 * enqueue, no read request is waiting and the strategy is the default count-one strategy, the chunk is appended
 * with size 1 (no code runs and nothing can throw). Returns whether ReadableStreamDefaultControllerShouldCallPull
 * now holds; only then do CallPullIfNeeded's steps have anything to do, and the caller must run them (through
 * {@link ReadableStreamDefaultControllerCallPullIfNeeded}). Returns `undefined`, having done nothing, when the
 * case does not apply; the caller then runs ReadableStreamDefaultControllerEnqueue. Sets `_appendOnly` when,
 * after the append, no pull is due: from then on an enqueue needs nothing but the append.
 */
export function readableStreamDefaultControllerAppendUnit<R>(
  controller: ReadableStreamDefaultController<R>,
  chunk: R,
): boolean | undefined {
  const stream = controller._controlledReadableStream;
  if (
    controller._closeRequested ||
    stream._state !== "readable" ||
    !isCountOne(controller._strategySizeAlgorithm) ||
    (stream._reader !== undefined && ReadableStreamGetNumReadRequests(stream) > 0)
  ) {
    return undefined;
  }
  const queue = controller._queue;
  queue.enqueueUnit(chunk);
  const pullDue = controller._started && controller._strategyHWM - queue.totalSize > 0;
  controller._appendOnly = controller._started && !pullDue;
  return pullDue;
}

/**
 * Whether what `_appendOnly` caches holds: the stream is readable and not closing, the strategy is the count-one
 * one, the controller has started, no read request waits, and the queue holds at least the high-water mark (so no
 * pull is due). The debug assertions of the enqueue fast paths check it while `_appendOnly` is set.
 */
export function appendOnlyHolds<R>(controller: ReadableStreamDefaultController<R>): boolean {
  const stream = controller._controlledReadableStream;
  return (
    stream._state === "readable" &&
    !controller._closeRequested &&
    isCountOne(controller._strategySizeAlgorithm) &&
    controller._started &&
    controller._queue.length > 0 &&
    (stream._reader === undefined || ReadableStreamGetNumReadRequests(stream) === 0) &&
    controller._strategyHWM - controller._queue.totalSize <= 0
  );
}
