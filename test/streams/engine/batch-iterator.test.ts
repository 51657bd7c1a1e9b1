import { describe, expect, test } from "vitest";
import { ReadableStream } from "../../../src/streams/index.ts";
import { toAsyncStreamable } from "../../../src/streams/iterable/index.ts";

/** A stream of `count` one-byte chunks, all enqueued at start, recording cancel reasons. */
function queued(count: number) {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        for (let i = 0; i < count; i++) controller.enqueue(new Uint8Array([i % 256]));
        controller.close();
      },
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: Number.POSITIVE_INFINITY },
  );
  return { stream, cancelled };
}

describe("ReadableStream.prototype[Symbol.for('Stream.toAsyncStreamable')]", () => {
  test("is a non-enumerable method of the prototype under the registered symbol", () => {
    const descriptor = Object.getOwnPropertyDescriptor(ReadableStream.prototype, toAsyncStreamable);
    expect(toAsyncStreamable).toBe(Symbol.for("Stream.toAsyncStreamable"));
    expect(descriptor).toMatchObject({ enumerable: false, writable: true, configurable: true });
    expect(typeof descriptor?.value).toBe("function");
    expect(() => descriptor?.value.call({})).toThrow(TypeError);
  });

  test("each step is one draining read: queued chunks arrive as one batch, as they are", async () => {
    const { stream } = queued(1000);
    const batches: Uint8Array[][] = [];
    for await (const batch of stream[toAsyncStreamable]()) batches.push(batch);
    expect(batches.map((batch) => batch.length)).toEqual([1000]);
    expect(batches[0]?.[999]).toEqual(new Uint8Array([999 % 256]));
  });

  test("a stream whose pull enqueues one chunk at a time gives one batch per pull that waits", async () => {
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await Promise.resolve();
        if (next === 5) controller.close();
        else controller.enqueue(new Uint8Array([next++]));
      },
    });
    const sizes: number[] = [];
    for await (const batch of stream[toAsyncStreamable]()) sizes.push(batch.length);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(5);
    expect(sizes.every((size) => size >= 1)).toBe(true);
  });

  test("strings are UTF-8 encoded, other views and ArrayBuffers become Uint8Arrays over the same memory", async () => {
    const buffer = new ArrayBuffer(4);
    const view = new DataView(buffer, 1, 2);
    const stream = new ReadableStream<unknown>({
      start(controller) {
        controller.enqueue("é");
        controller.enqueue(view);
        controller.enqueue(buffer);
        controller.close();
      },
    });
    const { value: batch } = await stream[toAsyncStreamable]().next();
    expect(batch).toEqual([new Uint8Array([0xc3, 0xa9]), new Uint8Array(2), new Uint8Array(4)]);
    expect(batch?.[1]?.buffer).toBe(buffer);
    expect(batch?.[1]?.byteOffset).toBe(1);
  });

  test("a chunk neither bytes nor a string rejects its step with a TypeError, cancelling the stream", async () => {
    const cancelled: unknown[] = [];
    const stream = new ReadableStream<unknown>({
      start(controller) {
        controller.enqueue(new Uint8Array(1));
        controller.enqueue(42);
      },
      cancel: (reason) => void cancelled.push(reason),
    });
    const iterator = stream[toAsyncStreamable]();
    const error = await iterator.next().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("Cannot convert a chunk to bytes: it is a number, not bytes or a string");
    expect(cancelled).toEqual([error]);
    expect(stream.locked).toBe(false);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  test("locks the stream when called, like values(); a locked stream refuses", () => {
    const { stream } = queued(1);
    stream[toAsyncStreamable]();
    expect(stream.locked).toBe(true);
    expect(() => stream[toAsyncStreamable]()).toThrow(TypeError);
  });

  test("return() before the end cancels the stream with its argument and releases it", async () => {
    let next = 0;
    const cancelled: unknown[] = [];
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array([next++])),
      cancel: (reason) => void cancelled.push(reason),
    });
    for await (const batch of stream[toAsyncStreamable]()) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    expect(cancelled).toEqual([undefined]);
    expect(stream.locked).toBe(false);
    const iterator = queued(3).stream[toAsyncStreamable]();
    expect(await iterator.return?.("enough" as never)).toEqual({ value: undefined, done: true });
  });

  test("an error of the stream rejects the step with that error and releases the lock", async () => {
    const cause = new RangeError("source broke");
    const stream = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(cause) });
    const iterator = stream[toAsyncStreamable]();
    await expect(iterator.next()).rejects.toBe(cause);
    expect(stream.locked).toBe(false);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  test("the end of the stream ends the iteration and releases the lock", async () => {
    const { stream } = queued(2);
    const iterator = stream[toAsyncStreamable]();
    expect((await iterator.next()).value).toHaveLength(2);
    expect(stream.locked).toBe(false);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });
});
