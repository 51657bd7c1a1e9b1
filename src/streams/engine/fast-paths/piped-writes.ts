/**
 * drainpipe's tests for the shortcuts taken while a pipe writes into a stream (not in the standard).
 * @module
 */

import type { TransformStream } from "../transform-stream.ts";
import { type WritableStream, WritableStreamCloseQueuedOrInFlight } from "../writable-stream.ts";

/**
 * Whether a pipe writes into `stream`'s writable side: nobody else can then observe when its writes settle, so a
 * write that completed synchronously may be finished at once.
 */
export function isWritableSidePiped<I, O>(stream: TransformStream<I, O>): boolean {
  return stream._writable._writableStreamController._synchronousCompletion;
}

/**
 * Whether a pipe writes into `stream` and it is idle: writable, started, not corked, nothing queued or in flight, no
 * close requested. A write made then reaches the sink at once in the standard, and nobody but the pipe can observe
 * the steps between; the shortcuts that skip them start from here.
 */
export function isPipedAndIdle<W>(stream: WritableStream<W>): boolean {
  const controller = stream._writableStreamController;
  return (
    stream._state === "writable" &&
    controller._synchronousCompletion &&
    controller._started &&
    !controller._corked &&
    stream._inFlightWriteRequest === undefined &&
    controller._queue.length === 0 &&
    !WritableStreamCloseQueuedOrInFlight(stream)
  );
}
