/**
 * drainpipe's shortcut for a transformer that enqueues a run of chunks one after another (not in the standard).
 * @module
 */

import { debugAssert } from "../../base/assert.ts";
import { readableController } from "../transform-stream.ts";
import {
  type TransformStreamDefaultController,
  TransformStreamDefaultControllerEnqueue,
} from "../transform-stream-default-controller.ts";
import { appendOnlyHolds } from "./append-unit.ts";

/**
 * TransformStreamDefaultControllerEnqueue of `chunks[start..end)`, in order: the same steps as enqueueing them one by
 * one, and the same state afterwards. Once an enqueue is known to reduce to appending its chunk with size 1 to the
 * readable side's queue, with backpressure already applied and no chunk held for a fused pipe (see
 * TransformStreamDefaultControllerEnqueue: no code runs and nothing can change in between), the chunks left are
 * appended in one range operation instead of one call each. A throwing enqueue stops the run, as it would stop a
 * loop of `enqueue` calls.
 *
 * @example
 * ```ts
 * new TransformStream<Float64Array, number>({
 *   transform(numbers, controller) {
 *     transformStreamDefaultControllerEnqueueEach(controller, numbers, 0, numbers.length);
 *   },
 * });
 * ```
 */
export function transformStreamDefaultControllerEnqueueEach<O>(
  controller: TransformStreamDefaultController<O>,
  chunks: ArrayLike<O>,
  start: number,
  end: number,
): void {
  const stream = controller._controlledTransformStream;
  for (let i = start; i < end; i++) {
    const readableSide = readableController(stream);
    if (readableSide._appendOnly === true && stream._backpressure === true && stream._fusedHop?.reader === undefined) {
      DEBUG: debugAssert(appendOnlyHolds(readableSide), "_appendOnly is set, but an enqueue is more than an append");
      readableSide._queue.enqueueUnitsFrom(chunks, i, end);
      return;
    }
    TransformStreamDefaultControllerEnqueue(controller, chunks[i] as O);
  }
}
