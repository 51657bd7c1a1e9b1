/**
 * drainpipe extension: coalesced writes. When an underlying sink defines `writev(chunks, controller)` and more
 * than one chunk is queued as the sink becomes ready, the controller hands all of them over at once. The batch
 * is one in-flight operation: the queued chunks keep counting against `desiredSize` until it completes, and
 * every covered `write()` promise settles with the batch's outcome.
 * @module
 */

import type { Completion } from "../../base/completion.ts";
import type { WritableStreamDefaultController } from "../writable-stream-default-controller.ts";

/** Writes a batch of chunks to the sink; returns a promise for its completion. */
export type WritevAlgorithm<W> = (chunks: W[]) => Completion;

/**
 * Like WritableStreamDefaultControllerProcessWrite, for the `chunks.length` oldest queued chunks at once:
 * marks their write requests in flight as one batch (settling it settles each of them, see
 * `WriteRequestRuns`) and calls the sink's `writev`, returning its completion.
 */
export function writableStreamDefaultControllerProcessWritev<W>(
  controller: WritableStreamDefaultController<W>,
  chunks: W[],
): Completion {
  const stream = controller._controlledWritableStream;
  stream._inFlightWriteRequest = stream._writeRequests.takeRuns(chunks.length);
  controller._inFlightCount = chunks.length;
  return (controller._writevAlgorithm as WritevAlgorithm<W>)(chunks);
}
