import { describe, expect, test } from "vitest";
import { ReadableStream, type ReadableStreamDefaultController } from "../../../src/streams/index.ts";
import { promisesCreatedBy, promisesMadeBy, promisesPerChunkOf } from "../pipe-cost.ts";
import { unhandledRejectionsOf } from "../unhandled-rejections.ts";

/** Node's own ReadableStream, typed as drainpipe's. */
const nativeReadable = globalThis.ReadableStream as typeof ReadableStream;

/** A source that enqueues one number per pull, as the benchmarks' reader loop reads (default high-water mark). */
function numbers(Stream: typeof ReadableStream, count: number): ReadableStream<number> {
  let next = 0;
  return new Stream<number>({
    pull(controller) {
      controller.enqueue(next++);
      if (next === count) controller.close();
    },
  });
}

/** `for (;;) { const { done, value } = await reader.read(); … }` over {@link numbers}; returns the sum. */
async function readerLoop(Stream: typeof ReadableStream, count: number): Promise<number> {
  const reader = numbers(Stream, count).getReader();
  let sum = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return sum;
    sum += value;
  }
}

/** `for await (const value of stream) …` over {@link numbers}; returns the sum. */
async function forAwait(Stream: typeof ReadableStream, count: number): Promise<number> {
  let sum = 0;
  for await (const value of numbers(Stream, count) as unknown as AsyncIterable<number>) sum += value;
  return sum;
}

describe("reader loop cost", () => {
  test("a reader loop over a one-chunk-per-pull source makes 3 promises per chunk, as native streams do", async () => {
    expect(await readerLoop(ReadableStream, 1000)).toBe((1000 * 999) / 2);
    // The read's own promise (every read waits: the chunk comes from a pull that only the previous pull's reaction
    // lets start), the reaction to the pull's completion, and the one `await` makes.
    expect(await promisesPerChunkOf((count) => readerLoop(ReadableStream, count), 1000)).toBeCloseTo(3, 2);
    expect(await promisesPerChunkOf((count) => readerLoop(nativeReadable, count), 1000)).toBeCloseTo(3, 2);
  });

  test("for await over a one-chunk-per-pull source makes 3 promises per chunk, as native streams do", async () => {
    expect(await forAwait(ReadableStream, 1000)).toBe((1000 * 999) / 2);
    // next()'s result (made in a reaction, one job after the chunk is taken), the reaction to the pull's
    // completion, and the one the loop's await makes.
    expect(await promisesPerChunkOf((count) => forAwait(ReadableStream, count), 1000)).toBeCloseTo(3, 2);
    expect(await promisesPerChunkOf((count) => forAwait(nativeReadable, count), 1000)).toBeCloseTo(3, 2);
  });

  test("a read that finds nothing queued makes one promise", async () => {
    let pulls = 0;
    const stream = new ReadableStream<number>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(pulls);
      },
    });
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    const { made, result: pending } = promisesMadeBy(() => reader.read());
    expect(made).toBe(1);
    expect(await pending).toEqual({ value: 3, done: false });
  });

  test("the source's pull is called as WebIDL calls it: no call or apply lookup, Reflect.apply as loaded", async () => {
    const calls: unknown[][] = [];
    const source = {
      pull(this: unknown, ...args: unknown[]) {
        calls.push([this, ...args]);
        (args[0] as ReadableStreamDefaultController<number>).enqueue(calls.length);
      },
    };
    const trap = () => {
      throw new Error("looked up");
    };
    Object.defineProperty(source.pull, "call", { get: trap });
    Object.defineProperty(source.pull, "apply", { get: trap });
    const reader = new ReadableStream<number>(source).getReader();
    const reflectApply = Reflect.apply;
    Reflect.apply = trap;
    try {
      expect(await reader.read()).toEqual({ value: 1, done: false });
      expect(await reader.read()).toEqual({ value: 2, done: false });
    } finally {
      Reflect.apply = reflectApply;
    }
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const [self, ...args] of calls) {
      expect(self).toBe(source);
      expect(args).toHaveLength(1);
    }
  });

  test("a reader makes its closed promise only when asked for, and its rejections are handled", async () => {
    const streams = Array.from({ length: 100 }, () => new ReadableStream());
    await new Promise((resolve) => setImmediate(resolve));
    expect(await promisesCreatedBy(async () => void streams.map((stream) => stream.getReader()))).toBe(
      await promisesCreatedBy(async () => undefined),
    );
    let fail: (reason: unknown) => void = () => {};
    const errored = new ReadableStream({
      start(controller) {
        fail = (reason) => controller.error(reason);
      },
    });
    const askedBefore = errored.getReader();
    const closedBefore = askedBefore.closed;
    const released = new ReadableStream().getReader();
    const reported = await unhandledRejectionsOf(() => {
      fail(new Error("failed"));
      released.releaseLock();
    });
    expect(reported).toEqual([]);
    await expect(closedBefore).rejects.toThrow("failed");
    await expect(released.closed).rejects.toBeInstanceOf(TypeError);
  });
});
