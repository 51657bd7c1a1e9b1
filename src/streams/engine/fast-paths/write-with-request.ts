/**
 * drainpipe's form of WritableStreamDefaultWriterWrite that takes the write request from the caller (not in the
 * standard), so that a pipe can settle its writes without a promise per chunk.
 * @module
 */

import { callWithChunkForCompletion, LazyDeferred } from "../../base/completion.ts";
import { promiseRejectedWith } from "../../base/promise-helpers.ts";
import { isNonNegativeNumber } from "../../standard/queue-with-sizes.ts";
import {
  type WritableStream,
  WritableStreamAddWriteRequest,
  WritableStreamCloseQueuedOrInFlight,
  WritableStreamUpdateBackpressure,
  type WriteRequest,
} from "../writable-stream.ts";
import {
  type WritableStreamDefaultController,
  WritableStreamDefaultControllerAdvanceQueueIfNeeded,
  WritableStreamDefaultControllerGetBackpressure,
  WritableStreamDefaultControllerGetChunkSize,
  WritableStreamDefaultControllerWrite,
  writableStreamDefaultControllerAfterSinkWrite,
} from "../writable-stream-default-controller.ts";
import type { WritableStreamDefaultWriter } from "../writable-stream-default-writer.ts";
import { writableStreamDefaultControllerFinishWrite } from "./finish-write.ts";
import { isPipedAndIdle } from "./piped-writes.ts";

/**
 * WritableStreamDefaultWriterWrite with the write request supplied by the caller, so internal callers (pipes)
 * can observe completion without a promise per chunk. Returns a rejected promise when the write fails before
 * it is queued (the request is then left untouched), or `undefined` once the request has been queued.
 */
export function writableStreamDefaultWriterWriteWithRequest<W>(
  writer: WritableStreamDefaultWriter<W>,
  chunk: W,
  request: WriteRequest,
): Promise<undefined> | undefined {
  const stream = writer._ownerWritableStream as WritableStream<W>;
  const controller = stream._writableStreamController;
  const chunkSize = WritableStreamDefaultControllerGetChunkSize(controller, chunk);
  if (stream !== writer._ownerWritableStream) {
    return promiseRejectedWith(new TypeError("Cannot write: the writer's lock was released while sizing the chunk"));
  }
  const state = stream._state;
  if (state === "errored") return promiseRejectedWith(stream._storedError);
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === "closed") {
    return promiseRejectedWith(new TypeError("Cannot write to a stream that is closing or closed"));
  }
  if (state === "erroring") return promiseRejectedWith(stream._storedError);
  if (
    isPipedAndIdle(stream) &&
    controller._underlyingWrite !== undefined &&
    isNonNegativeNumber(chunkSize) &&
    chunkSize !== Number.POSITIVE_INFINITY
  ) {
    writeInPlace(controller, chunk, chunkSize, request);
    return undefined;
  }
  WritableStreamAddWriteRequest(stream, request);
  WritableStreamDefaultControllerWrite(controller, chunk, chunkSize);
  return undefined;
}

/**
 * A piped write into an idle stream (nothing queued or in flight), made in place: the standard queues the chunk,
 * updates backpressure, takes it straight back out for the sink, and once the sink is done dequeues it and updates
 * backpressure again. While a pipe holds the lock nobody but the pipe can observe the queue or backpressure (they
 * show only through its writer), so the chunk goes to the sink at once, with its write request in flight as the
 * standard has it there, and joins the queue only if the sink does not complete synchronously.
 */
function writeInPlace<W>(
  controller: WritableStreamDefaultController<W>,
  chunk: W,
  chunkSize: number,
  request: WriteRequest,
): void {
  const stream = controller._controlledWritableStream;
  const underlyingWrite = controller._underlyingWrite as NonNullable<typeof controller._underlyingWrite>;
  stream._inFlightWriteRequest = request;
  controller._inFlightCount = 0;
  const completion = callWithChunkForCompletion(underlyingWrite.fn, underlyingWrite.sink, chunk, controller);
  if (completion === undefined || (completion instanceof LazyDeferred && completion.state === "fulfilled")) {
    writableStreamDefaultControllerFinishWrite(controller);
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    return;
  }
  controller._queue.enqueue(chunk, chunkSize);
  controller._inFlightCount = 1;
  if (!WritableStreamCloseQueuedOrInFlight(stream) && stream._state === "writable") {
    WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
  }
  writableStreamDefaultControllerAfterSinkWrite(controller, completion);
}
