import { promiseHooks } from "node:v8";
import { describe, expect, test } from "vitest";
import { ReadableStream, TransformStream, WritableStream } from "../../../src/streams/index.ts";

const CHUNKS = 10_000;

/** A source that enqueues one number per pull (the default high-water mark of 1), then closes. */
function numbers(count: number): ReadableStream<number> {
  let next = 0;
  return new ReadableStream<number>({
    pull(controller) {
      controller.enqueue(next++);
      if (next === count) controller.close();
    },
  });
}

/** A sink that adds up what it receives, synchronously. */
function summing(seen: number[]): WritableStream<number> {
  return new WritableStream<number>({
    write(chunk) {
      seen.push(chunk);
    },
  });
}

/** Runs `work` and counts the promises created meanwhile (each one a microtask or an allocation the pipe paid). */
async function promisesCreatedBy(work: () => Promise<unknown>): Promise<number> {
  let created = 0;
  const stop = promiseHooks.onInit(() => {
    created += 1;
  });
  try {
    await work();
  } finally {
    stop();
  }
  return created;
}

/**
 * Promises created per chunk by `pipe(count, seen)`: the difference between a run of 2 × {@link CHUNKS} chunks and
 * one of {@link CHUNKS}, so that what a pipe costs once (setting up, closing) cancels out. Checks that every chunk
 * arrived, in order.
 */
async function promisesPerChunk(pipe: (count: number, seen: number[]) => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (const count of [CHUNKS, 2 * CHUNKS]) {
    const seen: number[] = [];
    counts.push(await promisesCreatedBy(() => pipe(count, seen)));
    expect(seen).toEqual(Array.from({ length: count }, (_, index) => index));
  }
  return ((counts[1] as number) - (counts[0] as number)) / CHUNKS;
}

function identity(): TransformStream<number, number> {
  return new TransformStream<number, number>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
  });
}

describe("pipeTo cost shapes (synchronous source, transformer and sink)", () => {
  test("pipeTo creates no promise per chunk", async () => {
    expect(await promisesPerChunk((count, seen) => numbers(count).pipeTo(summing(seen)))).toBeLessThan(0.01);
  });

  test("pipeThrough a TransformStream, then pipeTo, creates no promise per chunk", async () => {
    const perChunk = await promisesPerChunk((count, seen) =>
      numbers(count).pipeThrough(identity()).pipeTo(summing(seen)),
    );
    expect(perChunk).toBeLessThan(0.01);
  });

  test("a chain of three TransformStreams creates no promise per chunk either", async () => {
    const perChunk = await promisesPerChunk((count, seen) =>
      numbers(count).pipeThrough(identity()).pipeThrough(identity()).pipeThrough(identity()).pipeTo(summing(seen)),
    );
    expect(perChunk).toBeLessThan(0.01);
  });

  test("a transformer that returns a promise is still waited for, chunk by chunk", async () => {
    const order: string[] = [];
    const slow = new TransformStream<number, number>({
      async transform(chunk, controller) {
        order.push(`start ${chunk}`);
        await Promise.resolve();
        order.push(`end ${chunk}`);
        controller.enqueue(chunk);
      },
    });
    const seen: number[] = [];
    await numbers(3).pipeThrough(slow).pipeTo(summing(seen));
    expect(seen).toEqual([0, 1, 2]);
    expect(order).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
  });
});
