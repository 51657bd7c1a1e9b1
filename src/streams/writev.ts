/**
 * drainpipe extension: coalesced writes. When an underlying sink defines `writev(chunks, controller)` and more
 * than one chunk is queued as the sink becomes ready, the controller hands all of them over at once. The batch
 * is one in-flight operation: the queued chunks keep counting against `desiredSize` until it completes, and
 * every covered `write()` promise settles with the batch's outcome.
 * @module
 */

import type { Completion } from "./promise-helpers.ts";
import type { WritableStreamDefaultController } from "./writable-stream-default-controller.ts";
import type { WriteRequest } from "./writable-stream.ts";

/** Writes a batch of chunks to the sink; returns a promise for its completion. */
export type WritevAlgorithm<W> = (chunks: W[]) => Completion;

/** The in-flight write request of a batch: settles every covered request in order. */
export class BatchWriteRequest implements WriteRequest {
  private readonly requests: WriteRequest[];

  constructor(requests: WriteRequest[]) {
    this.requests = requests;
  }

  /** Fulfils every covered write. */
  resolve(value: undefined): void {
    for (const request of this.requests) request.resolve(value);
  }

  /** Rejects every covered write. */
  reject(reason: unknown): void {
    for (const request of this.requests) request.reject(reason);
  }
}

/**
 * Like WritableStreamDefaultControllerProcessWrite, for the `chunks.length` oldest queued chunks at once:
 * marks their write requests in flight as one batch and calls the sink's `writev`, returning its completion.
 */
export function WritableStreamDefaultControllerProcessWritev<W>(controller: WritableStreamDefaultController<W>, chunks: W[]): Completion {
  const stream = controller._controlledWritableStream;
  const requests: WriteRequest[] = new Array<WriteRequest>(chunks.length);
  for (let i = 0; i < chunks.length; i++) requests[i] = stream._writeRequests.shift();
  stream._inFlightWriteRequest = new BatchWriteRequest(requests);
  controller._inFlightCount = chunks.length;
  return (controller._writevAlgorithm as WritevAlgorithm<W>)(chunks);
}
