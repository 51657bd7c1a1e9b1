import { afterEach, describe, expect, test, vi } from "vitest";
import { WriteRequestQueue } from "../../src/streams/engine/write-request-queue.ts";
import { ReadableStream, TransformStream, WritableStream } from "../../src/streams/index.ts";
import { QueueWithSizes } from "../../src/streams/standard/queue-with-sizes.ts";

const CHUNK_NUMBERS = 100_000;
const INPUT_CHUNKS = 5;
const HIGH_WATER_MARK = 65_536;

/** A per-number pipeline like the worker's: input batches → one enqueue per number → pipeTo → writev sink. */
async function runPipeline(sinkIsAsync: boolean): Promise<{ received: number[]; writevCalls: number }> {
  let sent = 0;
  const source = new ReadableStream<Float64Array>({
    pull(controller) {
      controller.enqueue(Float64Array.from({ length: CHUNK_NUMBERS }, (_, i) => sent * CHUNK_NUMBERS + i));
      sent += 1;
      if (sent === INPUT_CHUNKS) controller.close();
    },
  });
  const perNumber = new TransformStream<Float64Array, number>({
    transform(numbers, controller) {
      for (let i = 0; i < numbers.length; i++) controller.enqueue(numbers[i]!);
    },
  });
  const received: number[] = [];
  let writevCalls = 0;
  const sink = new WritableStream<number>(
    {
      write(chunk) {
        received.push(chunk);
      },
      writev(chunks) {
        writevCalls += 1;
        for (const chunk of chunks) received.push(chunk);
        return sinkIsAsync ? Promise.resolve() : undefined;
      },
    },
    { highWaterMark: HIGH_WATER_MARK },
  );
  await source.pipeThrough(perNumber).pipeTo(sink);
  return { received, writevCalls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("cost shape of a per-number transform piped into a writev sink", () => {
  for (const sinkIsAsync of [false, true]) {
    test(`queue and write-request work per batch, not per number (${sinkIsAsync ? "async" : "sync"})`, async () => {
      const enqueue = vi.spyOn(QueueWithSizes.prototype, "enqueue");
      const dequeue = vi.spyOn(QueueWithSizes.prototype, "dequeue");
      const take = vi.spyOn(QueueWithSizes.prototype, "take");
      const enqueueUnits = vi.spyOn(QueueWithSizes.prototype, "enqueueUnits");
      const shift = vi.spyOn(WriteRequestQueue.prototype, "shift");
      const push = vi.spyOn(WriteRequestQueue.prototype, "push");
      const { received, writevCalls } = await runPipeline(sinkIsAsync);
      const total = CHUNK_NUMBERS * INPUT_CHUNKS;
      expect(received).toEqual(Array.from({ length: total }, (_, i) => i));
      const batches = Math.ceil(total / HIGH_WATER_MARK) + 2 * INPUT_CHUNKS;
      expect(writevCalls).toBeLessThanOrEqual(batches);
      // Per number: the transformer's own enqueue into the readable side, nothing else.
      expect(enqueue.mock.calls.length).toBeLessThanOrEqual(total + 4 * INPUT_CHUNKS);
      // Per batch: moving numbers out of the readable side and into the sink's queue.
      expect(take.mock.calls.length + enqueueUnits.mock.calls.length).toBeLessThanOrEqual(4 * batches);
      // Single-chunk queue and write-request operations only at stream edges (input chunks, close).
      expect(dequeue.mock.calls.length).toBeLessThanOrEqual(4 * INPUT_CHUNKS + 4);
      expect(shift.mock.calls.length + push.mock.calls.length).toBeLessThanOrEqual(4 * INPUT_CHUNKS + 4);
    });
  }

  test("the writev sink receives the batch array itself, not a copy of the queue per batch", async () => {
    const slice = vi.spyOn(Array.prototype, "slice");
    const { received } = await runPipeline(false);
    expect(received.length).toBe(CHUNK_NUMBERS * INPUT_CHUNKS);
    const copied = slice.mock.results.reduce(
      (sum, result) => sum + ((result.value as unknown[] | undefined)?.length ?? 0),
      0,
    );
    // Numbers leave the readable side's queue by one copy; none are copied again on the way to the sink.
    expect(copied).toBeLessThanOrEqual(CHUNK_NUMBERS * INPUT_CHUNKS + HIGH_WATER_MARK);
  });
});
