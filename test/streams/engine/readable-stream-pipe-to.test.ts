import { describe, expect, test } from "vitest";
import {
  ReadableStream,
  type ReadableStreamDefaultController,
  TransformStream,
  WritableStream,
} from "../../../src/streams/index.ts";
import { constructionsDuring } from "../constructions.ts";
import { perChunk, promisesCreatedBy } from "../pipe-cost.ts";

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

/** Promises created per chunk by `pipe(count, seen)` (see {@link perChunk}). */
function promisesPerChunk(pipe: (count: number, seen: number[]) => Promise<unknown>): Promise<number> {
  return perChunk(promisesCreatedBy, (count, seen) => pipe(count, seen as number[]));
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
    const promises = await promisesPerChunk((count, seen) =>
      numbers(count).pipeThrough(identity()).pipeTo(summing(seen)),
    );
    expect(promises).toBeLessThan(0.01);
  });

  test("a chain of three TransformStreams creates no promise per chunk either", async () => {
    const promises = await promisesPerChunk((count, seen) =>
      numbers(count).pipeThrough(identity()).pipeThrough(identity()).pipeThrough(identity()).pipeTo(summing(seen)),
    );
    expect(promises).toBeLessThan(0.01);
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

/**
 * An endless source of 0, 1, 2, … (one number per pull) that records why it was cancelled; `onPull(n)` runs
 * before number `n` is enqueued and may error the stream instead (by returning `false`).
 */
function recordingSource(onPull: (n: number, controller: ReadableStreamDefaultController<number>) => boolean) {
  const cancelled: unknown[] = [];
  let next = 0;
  const stream = new ReadableStream<number>({
    pull(controller) {
      if (onPull(next, controller)) controller.enqueue(next++);
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return { stream, cancelled };
}

/** A sink that records what it was given and why it was aborted; `onWrite` may throw. */
function recordingSink(onWrite: (chunk: number) => void = () => undefined) {
  const seen: number[] = [];
  const aborted: unknown[] = [];
  const stream = new WritableStream<number>({
    write(chunk) {
      onWrite(chunk);
      seen.push(chunk);
    },
    abort(reason) {
      aborted.push(reason);
    },
  });
  return { stream, seen, aborted };
}

describe("faults inside a synchronous pipe through a TransformStream", () => {
  test("a transform that throws errors the pipe, cancels the source and aborts the sink with its error", async () => {
    const failure = new Error("bad chunk");
    const source = recordingSource(() => true);
    const throwing = new TransformStream<number, number>({
      transform(chunk, controller) {
        if (chunk === 1000) throw failure;
        controller.enqueue(chunk);
      },
    });
    const sink = recordingSink();
    await expect(source.stream.pipeThrough(throwing).pipeTo(sink.stream)).rejects.toBe(failure);
    expect(sink.seen).toEqual(Array.from({ length: 1000 }, (_, index) => index));
    expect(source.cancelled).toEqual([failure]);
    expect(sink.aborted).toEqual([failure]);
  });

  test("a sink that throws cancels the transform and, through it, the source", async () => {
    const failure = new Error("sink full");
    const source = recordingSource(() => true);
    const sink = recordingSink((chunk) => {
      if (chunk === 500) throw failure;
    });
    await expect(source.stream.pipeThrough(identity()).pipeTo(sink.stream)).rejects.toBe(failure);
    expect(sink.seen).toHaveLength(500);
    expect(source.cancelled).toEqual([failure]);
  });

  test("an abort signal stops a pipe that never waits, within the yield it takes every 65,536 chunks", async () => {
    const reason = new Error("stop");
    const stopper = new AbortController();
    const source = recordingSource((n) => {
      if (n === 10_000) stopper.abort(reason);
      return true;
    });
    const sink = recordingSink();
    const piping = source.stream.pipeThrough(identity()).pipeTo(sink.stream, { signal: stopper.signal });
    await expect(piping).rejects.toBe(reason);
    expect(sink.seen.length).toBeGreaterThan(9_990);
    expect(sink.seen.length).toBeLessThan(10_000 + 65_536);
    expect(source.cancelled).toEqual([reason]);
    expect(sink.aborted).toEqual([reason]);
  });

  test("a source that errors errors the transform and aborts the sink", async () => {
    const failure = new Error("source broke");
    const source = recordingSource((n, controller) => {
      if (n < 2000) return true;
      controller.error(failure);
      return false;
    });
    const sink = recordingSink();
    await expect(source.stream.pipeThrough(identity()).pipeTo(sink.stream)).rejects.toBe(failure);
    expect(sink.seen).toHaveLength(2000);
    expect(sink.aborted).toEqual([failure]);
  });
});

describe("releasing the locks a pipe or an async iterator holds internally", () => {
  test("a pipe that completes makes no TypeError for releasing its reader and writer", async () => {
    const seen: number[] = [];
    const made = await constructionsDuring("TypeError", () => numbers(20).pipeTo(summing(seen)));
    expect(seen).toHaveLength(20);
    expect(made).toBe(0);
  });

  test("a pipe aborted by its signal makes none either, and rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const sink = new WritableStream<number>({
      write(chunk) {
        if (chunk === 9) controller.abort(reason);
      },
    });
    let outcome: unknown;
    const made = await constructionsDuring("TypeError", async () => {
      outcome = await numbers(20)
        .pipeTo(sink, { signal: controller.signal })
        .catch((error: unknown) => error);
    });
    expect(outcome).toBe(reason);
    expect(made).toBe(0);
  });

  test("after a pipe, the source and destination can be locked again and show their final states", async () => {
    const source = numbers(3);
    const dest = summing([]);
    await source.pipeTo(dest, { preventClose: true });
    const writer = dest.getWriter();
    await expect(writer.ready).resolves.toBeUndefined();
    await expect(source.getReader().closed).resolves.toBeUndefined();
    await writer.close();
  });

  test("for await to the end, or broken out of, makes no TypeError for releasing the iterator's reader", async () => {
    let total = 0;
    const toEnd = await constructionsDuring("TypeError", async () => {
      for await (const value of numbers(10)) total += value;
    });
    const brokenOut = await constructionsDuring("TypeError", async () => {
      for await (const value of numbers(10)) if (value === 3) break;
    });
    expect(total).toBe(45);
    expect([toEnd, brokenOut]).toEqual([0, 0]);
  });

  test("a reader the user releases still makes its own TypeError", async () => {
    const reader = numbers(1).getReader();
    const closed = reader.closed;
    expect(await constructionsDuring("TypeError", async () => reader.releaseLock())).toBe(1);
    await expect(closed).rejects.toBeInstanceOf(TypeError);
  });
});
