/**
 * drainpipe's form of WritableStreamDefaultWriterWrite that takes the write request from the caller (not in the
 * standard), so that a pipe can settle its writes without a promise per chunk.
 * @module
 */

import { promiseRejectedWith } from "../standard/promise-helpers.ts";
import {
  type WritableStream,
  WritableStreamAddWriteRequest,
  WritableStreamCloseQueuedOrInFlight,
  type WriteRequest,
} from "../standard/writable-stream.ts";
import {
  WritableStreamDefaultControllerGetChunkSize,
  WritableStreamDefaultControllerWrite,
} from "../standard/writable-stream-default-controller.ts";
import type { WritableStreamDefaultWriter } from "../standard/writable-stream-default-writer.ts";

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
  WritableStreamAddWriteRequest(stream, request);
  WritableStreamDefaultControllerWrite(controller, chunk, chunkSize);
  return undefined;
}
