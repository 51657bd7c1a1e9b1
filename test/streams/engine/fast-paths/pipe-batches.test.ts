import { createHook } from "node:async_hooks";
import { describe, expect, test } from "vitest";
import { ReadableStream, TransformStream, WritableStream } from "../../../../src/streams/index.ts";

function countingSource(limit: number) {
  const state = { next: 0, pulls: 0 };
  const stream = new ReadableStream<number>({
    pull(controller) {
      state.pulls += 1;
      controller.enqueue(state.next++);
      if (state.next >= limit) controller.close();
    },
  });
  return { stream, state };
}

/** Promises created while `run` executes (async_hooks sees every promise, including internal reactions). */
async function countPromises(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") count += 1;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return count;
}

describe("pipeTo batches", () => {
  test("a writev sink receives queued chunks in batches no larger than its high-water mark", async () => {
    const batches: number[][] = [];
    const source = new ReadableStream<number>({
      start(controller) {
        for (let i = 0; i < 64; i++) controller.enqueue(i);
        controller.close();
      },
    });
    const sink = new WritableStream<number>(
      {
        write(chunk) {
          batches.push([chunk]);
        },
        writev(chunks) {
          batches.push(chunks);
          return new Promise((resolve) => setTimeout(resolve, 0));
        },
      },
      { highWaterMark: 16 },
    );
    await source.pipeTo(sink);
    expect(batches.flat()).toEqual(Array.from({ length: 64 }, (_, i) => i));
    expect(batches.every((batch) => batch.length <= 16)).toBe(true);
    expect(batches.length).toBeLessThanOrEqual(8);
  });

  test("calls pull once per chunk moved, however many chunks move per turn", async () => {
    const { stream, state } = countingSource(10_000);
    let written = 0;
    await stream.pipeTo(
      new WritableStream<number>({
        write() {
          written += 1;
        },
      }),
    );
    expect(written).toBe(10_000);
    expect(state.pulls).toBe(10_000);
  });

  test("calls a pull that enqueues nothing once per read, not again and again", async () => {
    const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0));
    const implementations: [typeof ReadableStream, typeof WritableStream][] = [
      [ReadableStream, WritableStream],
      [
        globalThis.ReadableStream as unknown as typeof ReadableStream,
        globalThis.WritableStream as unknown as typeof WritableStream,
      ],
    ];
    for (const [Readable, Writable] of implementations) {
      let pulls = 0;
      let source!: ReadableStreamDefaultController<number>;
      const stream = new Readable<number>({
        start(controller) {
          source = controller;
        },
        pull() {
          pulls += 1;
        },
      });
      const received: number[] = [];
      const done = stream.pipeTo(new Writable<number>({ write: (chunk) => void received.push(chunk) }));
      await macrotask();
      // The pull after start, and one for the pipe's first read unless that read came before start finished.
      const idle = pulls;
      expect(idle, Readable.name).toBeGreaterThanOrEqual(1);
      expect(idle, Readable.name).toBeLessThanOrEqual(2);
      await macrotask();
      await macrotask();
      expect(pulls, Readable.name).toBe(idle);
      source.enqueue(7);
      await macrotask();
      expect(received).toEqual([7]);
      // The pull the enqueue asks for, and one for the pipe's next read unless that read came while it ran.
      expect(pulls - idle, Readable.name).toBeGreaterThanOrEqual(1);
      expect(pulls - idle, Readable.name).toBeLessThanOrEqual(2);
      await macrotask();
      const afterChunk = pulls;
      await macrotask();
      expect(pulls, Readable.name).toBe(afterChunk);
      source.close();
      await done;
    }
  });

  test("moves chunks between synchronous endpoints without a promise per chunk", async () => {
    const chunks = 5_000;
    const promises = await countPromises(() =>
      countingSource(chunks).stream.pipeTo(new WritableStream<number>({ write() {} })),
    );
    // A spec-literal pipe needs at least 3 promises per chunk (read, write, ready); this one needs none.
    expect(promises / chunks).toBeLessThan(0.05);
  });

  test("through a TransformStream it needs well under the promises of a spec-literal pipe chain", async () => {
    const chunks = 5_000;
    const promises = await countPromises(() =>
      countingSource(chunks)
        .stream.pipeThrough(
          new TransformStream<number, number>({
            transform(chunk, controller) {
              controller.enqueue(chunk * 2);
            },
          }),
        )
        .pipeTo(new WritableStream<number>({ write() {} })),
    );
    // Spec-literal: two pipes (read, write, ready each) plus the transform's promise wrapping and backpressure
    // promise: more than 8 per chunk. Here only the microtask hops the standard's timing requires remain.
    expect(promises / chunks).toBeLessThan(4);
  });

  test("through a TransformStream it creates fewer promises than the runtime's own streams", async () => {
    const chunks = 2_000;
    const native = globalThis as unknown as {
      ReadableStream: typeof ReadableStream;
      WritableStream: typeof WritableStream;
      TransformStream: typeof TransformStream;
    };
    const run = (impl: typeof native) => {
      let next = 0;
      return new impl.ReadableStream<number>({
        pull(controller) {
          controller.enqueue(next++);
          if (next >= chunks) controller.close();
        },
      })
        .pipeThrough(new impl.TransformStream<number, number>({ transform: (chunk, c) => c.enqueue(chunk) }))
        .pipeTo(new impl.WritableStream<number>({ write() {} }));
    };
    const ours = await countPromises(() => run({ ReadableStream, WritableStream, TransformStream }));
    const theirs = await countPromises(() => run(native));
    expect(ours).toBeLessThan(theirs);
  });

  test("chains of transform streams deliver every chunk in order, whatever the strategies and sink pace", async () => {
    for (const readableHighWaterMark of [0, 1, 16]) {
      for (const asyncSink of [false, true]) {
        const received: number[] = [];
        const fanOut = new TransformStream<number, number>(
          {
            transform(chunk, controller) {
              controller.enqueue(chunk * 3);
              controller.enqueue(chunk * 3 + 1);
              controller.enqueue(chunk * 3 + 2);
            },
          },
          undefined,
          { highWaterMark: readableHighWaterMark },
        );
        const passThrough = new TransformStream<number, number>();
        await countingSource(200)
          .stream.pipeThrough(fanOut)
          .pipeThrough(passThrough)
          .pipeTo(
            new WritableStream<number>({
              write(chunk) {
                received.push(chunk);
                return asyncSink && chunk % 7 === 0 ? new Promise((resolve) => setTimeout(resolve, 0)) : undefined;
              },
            }),
          );
        expect(received).toEqual(Array.from({ length: 600 }, (_, i) => i));
      }
    }
  });

  test("aborting the signal mid-pipe stops it, aborts the destination and cancels the source", async () => {
    const controller = new AbortController();
    let cancelReason: unknown;
    let abortReason: unknown;
    let written = 0;
    const source = new ReadableStream<number>({
      pull(c) {
        c.enqueue(1);
      },
      cancel(reason) {
        cancelReason = reason;
      },
    });
    const sink = new WritableStream<number>({
      write() {
        written += 1;
        if (written === 1000) controller.abort("enough");
        return written >= 1000 ? new Promise((resolve) => setTimeout(resolve, 0)) : undefined;
      },
      abort(reason) {
        abortReason = reason;
      },
    });
    await expect(source.pipeTo(sink, { signal: controller.signal })).rejects.toBe("enough");
    expect(cancelReason).toBe("enough");
    expect(abortReason).toBe("enough");
    expect(written).toBe(1000);
  });

  test("preventAbort and preventCancel keep both ends usable after an abort", async () => {
    const controller = new AbortController();
    const source = new ReadableStream<number>({
      pull(c) {
        c.enqueue(1);
      },
    });
    let written = 0;
    const sink = new WritableStream<number>({
      write() {
        written += 1;
        if (written === 10) controller.abort("halt");
      },
    });
    await expect(
      source.pipeTo(sink, { signal: controller.signal, preventAbort: true, preventCancel: true }),
    ).rejects.toBe("halt");
    expect(source.locked).toBe(false);
    expect(sink.locked).toBe(false);
    const reader = source.getReader();
    await expect(reader.read()).resolves.toEqual({ value: 1, done: false });
    const writer = sink.getWriter();
    await expect(writer.write(2)).resolves.toBeUndefined();
  });

  test("preventClose leaves the destination open once the source is drained", async () => {
    const written: number[] = [];
    const sink = new WritableStream<number>({
      write(chunk) {
        written.push(chunk);
      },
    });
    await countingSource(100).stream.pipeTo(sink, { preventClose: true });
    const writer = sink.getWriter();
    await writer.write(-1);
    expect(written).toHaveLength(101);
    expect(written.at(-1)).toBe(-1);
  });

  test("a source error mid-pipe aborts the destination after the chunks read before it", async () => {
    const error = new Error("source broke");
    let next = 0;
    const source = new ReadableStream<number>({
      pull(c) {
        if (next === 500) c.error(error);
        else c.enqueue(next++);
      },
    });
    const written: number[] = [];
    let abortReason: unknown;
    const sink = new WritableStream<number>({
      write(chunk) {
        written.push(chunk);
      },
      abort(reason) {
        abortReason = reason;
      },
    });
    await expect(source.pipeTo(sink)).rejects.toBe(error);
    expect(written).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(abortReason).toBe(error);
  });

  test("a destination error cancels the source", async () => {
    const error = new Error("sink broke");
    let cancelReason: unknown;
    const source = new ReadableStream<number>({
      pull(c) {
        c.enqueue(1);
      },
      cancel(reason) {
        cancelReason = reason;
      },
    });
    let written = 0;
    const sink = new WritableStream<number>({
      write() {
        written += 1;
        if (written === 300) throw error;
      },
    });
    await expect(source.pipeTo(sink)).rejects.toBe(error);
    expect(cancelReason).toBe(error);
    expect(written).toBe(300);
  });
});
