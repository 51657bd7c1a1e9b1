import { describe, expect, test } from "vitest";
import { collectBytes } from "../../../src/streams/adapters/collect-bytes.ts";
import { ReadableStream } from "../../../src/streams/index.ts";
import { patternBytes } from "../byte-fixtures.ts";

function chunks(bytes: Uint8Array, size: number, cancelled: unknown[] = []): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
    cancel: (reason) => void cancelled.push(reason),
  });
}

describe("collectBytes", () => {
  test("reads a whole stream into one buffer of maxBytes, returning the filled part", async () => {
    const bytes = patternBytes(10_000);
    const collected = await collectBytes(chunks(bytes, 777), 16_384);
    expect(collected).toEqual(bytes);
    expect(collected.buffer.byteLength).toBe(16_384);
  });

  test("collects an empty stream, and a stream of exactly maxBytes", async () => {
    expect((await collectBytes(chunks(new Uint8Array(0), 1), 8)).byteLength).toBe(0);
    expect(await collectBytes(chunks(patternBytes(64), 16), 64)).toEqual(patternBytes(64));
  });

  test("cancels a longer stream and rejects with a RangeError", async () => {
    const cancelled: unknown[] = [];
    const collecting = collectBytes(chunks(patternBytes(100), 30, cancelled), 99);
    await expect(collecting).rejects.toThrow("Cannot collect bytes: the stream is longer than maxBytes (99)");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toBeInstanceOf(RangeError);
  });

  test("rejects with the stream's own error", async () => {
    const failure = new Error("upstream broke");
    const stream = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(failure) });
    await expect(collectBytes(stream, 10)).rejects.toBe(failure);
  });

  test("rejects a bad maxBytes before reading", async () => {
    const stream = chunks(patternBytes(1), 1);
    await expect(collectBytes(stream, -1)).rejects.toThrow(RangeError);
    expect(stream.locked).toBe(false);
  });

  test("releases the stream once collected", async () => {
    const stream = chunks(patternBytes(10), 4);
    await collectBytes(stream, 10);
    expect(stream.locked).toBe(false);
  });
});
