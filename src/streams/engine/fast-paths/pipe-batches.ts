/**
 * drainpipe extension: batch moves for `pipeTo`. A pipe drains the source with the same synchronous draining as
 * `readMany` (queued chunks, plus synchronous `pull`s), no further than the destination's `desiredSize` allows,
 * and writes the batch with the destination "corked": every chunk is queued (no promise per chunk) before the
 * sink is called, so a sink with `writev` receives the whole batch in one call. Other destinations get each
 * chunk written as soon as it is read. While the pipe holds the destination's lock nobody can observe its write
 * promises, so sink writes that complete synchronously are finished at once (see
 * `WritableStreamDefaultControllerAdvanceQueueIfNeeded`), and a transform stream's sides that are piped resume
 * as soon as their backpressure changes instead of a microtask later. Observable results (order, backpressure,
 * close/abort/cancel propagation) are those of the standard pipe.
 *
 * With the default count-one strategies on both sides, a batch costs a few range operations rather than work per
 * chunk: the source's queue hands over a range of chunks at once (the `[dequeueMany]` method, see
 * `synchronous-drain.ts`), the
 * batch enters the destination's queue as one operation with one run of write requests (see `writeBatch`), and
 * the array the pipe collected is the one the sink's `writev` receives and the queue later discards in one step
 * (see `queue-with-sizes.ts`). A per-chunk producer such as a transformer enqueuing one number at a time then
 * pays, per chunk, only for its own `enqueue` call.
 * @module
 */

import { isCountOne } from "../../standard/queuing-strategy.ts";
import {
  type WritableStream,
  WritableStreamCloseQueuedOrInFlight,
  WritableStreamUpdateBackpressure,
  type WriteRequest,
} from "../writable-stream.ts";
import {
  WritableStreamDefaultControllerAdvanceQueueIfNeeded,
  WritableStreamDefaultControllerGetBackpressure,
} from "../writable-stream-default-controller.ts";
import type { WritableStreamDefaultWriter } from "../writable-stream-default-writer.ts";
import { writableStreamDefaultWriterWriteWithRequest } from "./write-with-request.ts";

/**
 * How many chunks a pipe may read for a destination whose `desiredSize` is `desiredSize` (> 0): enough to fill
 * it when every chunk counts 1, otherwise one at a time (sizes are only known once the chunk is written).
 */
export function batchLimit<W>(dest: WritableStream<W>, desiredSize: number): number {
  if (isCountOne(dest._writableStreamController._strategySizeAlgorithm)) {
    return Math.max(1, Math.ceil(desiredSize));
  }
  return 1;
}

/**
 * Writes `chunks` in order through `writer`, settling `request` once per chunk, with the sink held back until
 * all are queued. Takes `chunks` over (the caller must not use the array afterwards). Calls `onFailedWrite` for a chunk
 * that could not be queued (the stream was closing or erroring; the pipe's propagation rules deal with that state).
 *
 * When the destination is writable, not closing, and sizes every chunk 1 with the default strategy, the N
 * WritableStreamDefaultWriterWrite steps are done as one: sizing runs no code and cannot fail, so none of the
 * per-chunk checks can change between chunks; the N write requests are one run of `request` in
 * [[writeRequests]] (see `write-request-queue.ts`), the N chunks are appended to the queue in one range
 * operation (the array itself becomes the storage of an empty queue, and, when the sink is ready, is the array
 * its `writev` receives: see `queue-with-sizes.ts`), and backpressure is updated once (the queue only grows meanwhile,
 * so it changes at most once).
 */
export function writeBatch<W>(
  writer: WritableStreamDefaultWriter<W>,
  chunks: W[],
  request: WriteRequest,
  onFailedWrite: (failure: Promise<undefined>) => void,
): void {
  const stream = writer._ownerWritableStream as WritableStream<W>;
  const controller = stream._writableStreamController;
  if (
    chunks.length > 1 &&
    stream._state === "writable" &&
    !WritableStreamCloseQueuedOrInFlight(stream) &&
    isCountOne(controller._strategySizeAlgorithm)
  ) {
    stream._writeRequests.pushRun(request, chunks.length);
    controller._queue.enqueueUnits(chunks);
    WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    return;
  }
  const corked = chunks.length > 1;
  if (corked) controller._corked = true;
  for (const chunk of chunks) {
    const failure = writableStreamDefaultWriterWriteWithRequest(writer, chunk, request);
    if (failure !== undefined) onFailedWrite(failure);
  }
  if (corked) {
    controller._corked = false;
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  }
}
