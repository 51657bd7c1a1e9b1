import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  DEFAULT_MAX_CHUNKS,
  ReadableStream,
  ReadableStreamDefaultReader,
  TransformStream,
} from "../../../../src/streams/index.ts";

function counter(limit: number, perPull = 1) {
  const state = { next: 0, pulls: 0 };
  const stream = new ReadableStream<number>({
    pull(controller) {
      state.pulls += 1;
      for (let k = 0; k < perPull && state.next < limit; k++) controller.enqueue(state.next++);
      if (state.next >= limit) controller.close();
    },
  });
  return { stream, state };
}

describe("readMany", () => {
  test("is a non-enumerable, feature-detectable method of the default reader", () => {
    const reader = new ReadableStream().getReader();
    expect(typeof reader.readMany).toBe("function");
    expect(Object.keys(Object.getPrototypeOf(reader))).not.toContain("readMany");
  });

  test("behaves like a WebIDL operation: length 0, writable, configurable, brand-checked", async () => {
    const descriptor = Object.getOwnPropertyDescriptor(ReadableStreamDefaultReader.prototype, "readMany")!;
    expect(descriptor).toMatchObject({ writable: true, enumerable: false, configurable: true });
    expect(descriptor.value.length).toBe(0);
    expect(descriptor.value.name).toBe("readMany");
    await expect(descriptor.value.call({})).rejects.toBeInstanceOf(TypeError);
    await expect(descriptor.value.call(new ReadableStream().getReader(), 1)).rejects.toBeInstanceOf(TypeError);
  });

  test("drains everything a synchronous pull source produces in one call", async () => {
    const { stream, state } = counter(1000);
    const reader = stream.getReader();
    const { chunks, done } = await reader.readMany();
    expect(chunks).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(done).toBe(true);
    expect(state.pulls).toBe(1000);
  });

  test("calls pull once per produced batch, not once per read", async () => {
    const { stream, state } = counter(1000, 100);
    const reader = stream.getReader();
    const { chunks } = await reader.readMany();
    expect(chunks).toHaveLength(1000);
    expect(state.pulls).toBe(10);
  });

  test("stops at maxChunks and continues where it stopped", async () => {
    const { stream } = counter(25);
    const reader = stream.getReader();
    const sizes: number[] = [];
    const all: number[] = [];
    for (;;) {
      const { chunks, done } = await reader.readMany({ maxChunks: 10 });
      sizes.push(chunks.length);
      all.push(...chunks);
      if (done) break;
    }
    expect(all).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(sizes.slice(0, 2)).toEqual([10, 10]);
    expect(sizes.every((n) => n <= 10)).toBe(true);
  });

  test("stops once maxBytes is reached", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(100));
      },
    });
    const { chunks, done } = await stream.getReader().readMany({ maxBytes: 250 });
    expect(chunks).toHaveLength(3);
    expect(done).toBe(false);
  });

  test("waits for the first chunk, then drains what arrived with it", async () => {
    let controller!: ReadableStreamDefaultController<string>;
    const stream = new ReadableStream<string>({
      start(c) {
        controller = c;
      },
    });
    const reader = stream.getReader();
    const pending = reader.readMany();
    await Promise.resolve();
    controller.enqueue("a");
    controller.enqueue("b");
    controller.enqueue("c");
    await expect(pending).resolves.toEqual({ chunks: ["a", "b", "c"], done: false });
  });

  test("resolves done with no chunks on a closed stream", async () => {
    const stream = new ReadableStream({
      start(c) {
        c.close();
      },
    });
    await expect(stream.getReader().readMany()).resolves.toEqual({ chunks: [], done: true });
  });

  test("reports done together with the last chunks when the source closes", async () => {
    const stream = new ReadableStream<number>({
      start(c) {
        c.enqueue(1);
        c.enqueue(2);
        c.close();
      },
    });
    await expect(stream.getReader().readMany()).resolves.toEqual({ chunks: [1, 2], done: true });
  });

  test("rejects with the stream's error when it errors while waiting", async () => {
    let controller!: ReadableStreamDefaultController<number>;
    const stream = new ReadableStream<number>({
      start(c) {
        controller = c;
      },
    });
    const pending = stream.getReader().readMany();
    const error = new Error("boom");
    controller.error(error);
    await expect(pending).rejects.toBe(error);
  });

  test("rejects when pull throws and nothing was read", async () => {
    const error = new Error("pull failed");
    const stream = new ReadableStream<number>({
      pull() {
        throw error;
      },
    });
    await expect(stream.getReader().readMany()).rejects.toBe(error);
  });

  test("hands over chunks read before an error, then rejects", async () => {
    const error = new Error("late");
    let calls = 0;
    const stream = new ReadableStream<number>({
      pull(c) {
        calls += 1;
        if (calls === 1) c.enqueue(1);
        else c.error(error);
      },
    });
    const reader = stream.getReader();
    await expect(reader.readMany()).resolves.toEqual({ chunks: [1], done: false });
    await expect(reader.readMany()).rejects.toBe(error);
  });

  test("a pending readMany resolves done when the stream is cancelled", async () => {
    let cancelled: unknown;
    const stream = new ReadableStream({
      cancel(reason) {
        cancelled = reason;
      },
    });
    const reader = stream.getReader();
    const pending = reader.readMany();
    await reader.cancel("stop");
    await expect(pending).resolves.toEqual({ chunks: [], done: true });
    expect(cancelled).toBe("stop");
  });

  test("a pending readMany rejects with a TypeError when the lock is released", async () => {
    const reader = new ReadableStream().getReader();
    const pending = reader.readMany();
    reader.releaseLock();
    await expect(pending).rejects.toBeInstanceOf(TypeError);
  });

  test("rejects on a released reader and on invalid options", async () => {
    const stream = new ReadableStream();
    const reader = stream.getReader();
    await expect(reader.readMany({ maxChunks: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(reader.readMany({ maxBytes: -1 })).rejects.toBeInstanceOf(TypeError);
    reader.releaseLock();
    await expect(reader.readMany()).rejects.toBeInstanceOf(TypeError);
  });

  test("returns a soft-capped batch by default", async () => {
    const stream = new ReadableStream<number>({
      pull(c) {
        c.enqueue(0);
      },
    });
    const { chunks } = await stream.getReader().readMany();
    expect(chunks).toHaveLength(DEFAULT_MAX_CHUNKS);
  });

  test("works on streams without an underlying pull (transform output)", async () => {
    const transform = new TransformStream<number, number>({
      transform(chunk, controller) {
        controller.enqueue(chunk * 10);
        controller.enqueue(chunk * 10 + 1);
      },
    });
    const writer = transform.writable.getWriter();
    const reader = transform.readable.getReader();
    const first = reader.readMany();
    void writer.write(1);
    await expect(first).resolves.toEqual({ chunks: [10, 11], done: false });
    void writer.close();
    await expect(reader.readMany()).resolves.toEqual({ chunks: [], done: true });
  });

  test("drains byte streams through a default reader", async () => {
    const stream = new ReadableStream({
      type: "bytes",
      start(c) {
        c.enqueue(new Uint8Array([1, 2]));
        c.enqueue(new Uint8Array([3]));
        c.close();
      },
    });
    const { chunks, done } = await stream.getReader().readMany();
    expect(chunks.map((chunk) => Array.from(chunk as Uint8Array))).toEqual([[1, 2], [3]]);
    expect(done).toBe(true);
  });
});

/** What one call of a scripted source's `pull` does. */
type PullScript = "one" | "two" | "close" | "oneClose";

/**
 * A source whose pulls follow `script` (then close), logging each pull with the desired size it sees, under a
 * strategy of `highWaterMark`.
 */
function scripted(script: PullScript[], highWaterMark: number, log: string[]): ReadableStream<number> {
  let pulls = 0;
  let next = 0;
  return new ReadableStream<number>(
    {
      pull(controller) {
        const action = script[pulls] ?? "close";
        log.push(`pull#${pulls++} ds=${controller.desiredSize}`);
        if (action !== "close") controller.enqueue(next++);
        if (action === "two") controller.enqueue(next++);
        if (action === "close" || action === "oneClose") controller.close();
      },
    },
    { highWaterMark },
  );
}

/** Reads `stream` to its end with `read`, logging the chunks and how it ended, then waits until all is done. */
async function readAllWith(
  stream: ReadableStream<number>,
  log: string[],
  read: (reader: ReadableStreamDefaultReader<number>) => Promise<{ chunks: number[]; done: boolean }>,
): Promise<string[]> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { chunks, done } = await read(reader);
      for (const chunk of chunks) log.push(`chunk ${chunk}`);
      if (done) break;
    }
    log.push("done");
  } catch (error) {
    log.push(`error ${(error as Error).message}`);
  }
  await new Promise((resolve) => setImmediate(resolve));
  return log;
}

/**
 * readMany is reads made as fast as possible, collected: a loop of readMany must see what a loop of read() sees. Not
 * compared: sources that error (how many queued chunks the error discards depends on how far the reads have come,
 * the reader's pace) and, past a high-water mark of 1, the desired size each pull sees (how far pulls run ahead of
 * the reads, the pace again).
 */
describe("readMany against read()", () => {
  test("the same chunks and ending as a loop of read(), and up to a high-water mark of 1 the same pulls", async () => {
    const script = fc.array(fc.constantFrom<PullScript>("one", "one", "one", "two", "close", "oneClose"), {
      maxLength: 40,
    });
    await fc.assert(
      fc.asyncProperty(script, fc.constantFrom(0, 1, 2, 16), async (pulls, highWaterMark) => {
        const readLog: string[] = [];
        const reads = await readAllWith(scripted(pulls, highWaterMark, readLog), readLog, async (reader) => {
          const { done, value } = await reader.read();
          return { chunks: done ? [] : [value], done };
        });
        const drainLog: string[] = [];
        const drained = await readAllWith(scripted(pulls, highWaterMark, drainLog), drainLog, (reader) =>
          reader.readMany(),
        );
        const calls = (log: string[]) => log.filter((line) => line.startsWith("pull#"));
        const rest = (log: string[]) => log.filter((line) => !line.startsWith("pull#"));
        expect(rest(drained)).toEqual(rest(reads));
        if (highWaterMark <= 1) expect(calls(drained)).toEqual(calls(reads));
      }),
      { numRuns: 300 },
    );
  });
});
