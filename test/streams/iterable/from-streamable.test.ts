import { describe, expect, test } from "vitest";
import { ReadableStream } from "../../../src/streams/index.ts";
import { fromStreamable, toAsyncStreamable } from "../../../src/streams/iterable/index.ts";

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** An async iterable of `batches`, counting the steps taken and recording `return()` calls. */
function countedSource(batches: unknown[]) {
  const log = { steps: 0, returned: [] as unknown[] };
  const iterable: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]() {
      let index = 0;
      return {
        async next() {
          log.steps += 1;
          return index < batches.length ? { value: batches[index++], done: false } : { value: undefined, done: true };
        },
        async return(reason?: unknown) {
          log.returned.push(reason);
          return { value: undefined, done: true };
        },
      };
    },
  };
  return { iterable, log };
}

describe("fromStreamable", () => {
  test("a batch per pull: each step's batch is enqueued whole, as one chunk of its bytes", async () => {
    const { iterable, log } = countedSource([[bytes(1), bytes(2, 3), bytes(4)], [bytes(5)]]);
    const reader = fromStreamable(iterable).getReader();
    expect(await reader.readMany()).toEqual({ chunks: [bytes(1, 2, 3, 4)], done: false });
    expect(log.steps).toBe(1);
    expect(await reader.readMany()).toEqual({ chunks: [bytes(5)], done: false });
    expect(await reader.readMany()).toEqual({ chunks: [], done: true });
  });

  test("the source keeps its buffers: chunks are copied, never detached", async () => {
    const shared = new Uint8Array([1, 2, 3, 4]);
    const { iterable } = countedSource([[shared.subarray(0, 2), shared.subarray(2)], [shared]]);
    const chunks: Uint8Array[] = [];
    for await (const chunk of fromStreamable(iterable)) chunks.push(chunk);
    expect(chunks).toEqual([bytes(1, 2, 3, 4), bytes(1, 2, 3, 4)]);
    expect(shared.byteLength).toBe(4);
    expect(chunks[1]?.buffer).not.toBe(shared.buffer);
  });

  test("is a byte stream: a BYOB reader reads into its own buffer", async () => {
    const { iterable } = countedSource([[bytes(1, 2, 3)], "ab"]);
    const reader = fromStreamable(iterable).getReader({ mode: "byob" });
    const first = await reader.read(new Uint8Array(2));
    expect(first.value).toEqual(bytes(1, 2));
    expect((await reader.read(new Uint8Array(8))).value).toEqual(bytes(3));
    expect((await reader.read(new Uint8Array(8))).value).toEqual(bytes(0x61, 0x62));
    expect((await reader.read(new Uint8Array(8))).done).toBe(true);
  });

  test("takes sync iterables, single chunks and strings, skipping empty chunks and batches", async () => {
    function* steps() {
      yield "é";
      yield [];
      yield new Uint8Array(0);
      yield [bytes(7), new Uint8Array(0)];
      yield new Uint16Array([0x0102]).buffer;
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of fromStreamable(steps())) chunks.push(chunk);
    expect(chunks).toEqual([bytes(0xc3, 0xa9), bytes(7), new Uint8Array(new Uint16Array([0x0102]).buffer)]);
  });

  test("converts an object with the toAsyncStreamable protocol first, a drainpipe stream included", async () => {
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue("a");
        controller.enqueue("b");
        controller.close();
      },
    });
    const reader = fromStreamable(source).getReader();
    expect(await reader.readMany()).toEqual({ chunks: [bytes(0x61, 0x62)], done: false });
    const promised = { [toAsyncStreamable]: async () => [[bytes(9)]] };
    expect(
      await fromStreamable(promised as never)
        .getReader()
        .readMany(),
    ).toEqual({ chunks: [bytes(9)], done: false });
  });

  test("backpressure: the source is stepped only when a read waits", async () => {
    const { iterable, log } = countedSource([[bytes(1)], [bytes(2)], [bytes(3)]]);
    const reader = fromStreamable(iterable).getReader();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(log.steps).toBe(0);
    await reader.read();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(log.steps).toBe(1);
  });

  test("cancelling the stream calls the iterator's return() with the reason", async () => {
    const { iterable, log } = countedSource([[bytes(1)], [bytes(2)]]);
    const reader = fromStreamable(iterable).getReader();
    await reader.read();
    await reader.cancel("enough");
    expect(log.returned).toEqual(["enough"]);
  });

  test("an error of the source errors the stream with that error", async () => {
    const cause = new RangeError("source broke");
    async function* failing() {
      yield [bytes(1)];
      throw cause;
    }
    const reader = fromStreamable(failing()).getReader();
    expect((await reader.read()).value).toEqual(bytes(1));
    await expect(reader.read()).rejects.toBe(cause);
  });

  test("a chunk neither bytes nor a string errors the stream with a TypeError and ends the iterator", async () => {
    const { iterable, log } = countedSource([[bytes(1), 5]]);
    const reader = fromStreamable(iterable).getReader();
    await expect(reader.read()).rejects.toThrow("Cannot convert a chunk to bytes: it is a number");
    expect(log.returned).toEqual([undefined]);
  });

  test("refuses a source that is neither iterable nor async iterable", () => {
    expect(() => fromStreamable(42 as never)).toThrow(
      "Cannot read a streamable: the source is neither iterable nor async iterable",
    );
  });
});
