/**
 * drainpipe's split of WritableStreamDefaultControllerProcessWrite (not in the standard): the fulfilment steps,
 * run by the controller's reaction or at once for a piped write that completed synchronously.
 * @module
 */

import {
  WritableStreamCloseQueuedOrInFlight,
  WritableStreamFinishInFlightWrite,
  WritableStreamUpdateBackpressure,
} from "../writable-stream.ts";
import {
  type WritableStreamDefaultController,
  WritableStreamDefaultControllerGetBackpressure,
} from "../writable-stream-default-controller.ts";

/**
 * The fulfilment steps of WritableStreamDefaultControllerProcessWrite, for the single chunk or `writev` batch in
 * flight, up to (not including) advancing the queue.
 */
export function writableStreamDefaultControllerFinishWrite<W>(controller: WritableStreamDefaultController<W>): void {
  const stream = controller._controlledWritableStream;
  const count = controller._inFlightCount;
  controller._inFlightCount = 0;
  WritableStreamFinishInFlightWrite(stream);
  const state = stream._state;
  controller._queue.discard(count);
  if (!WritableStreamCloseQueuedOrInFlight(stream) && state === "writable") {
    WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
  }
}
