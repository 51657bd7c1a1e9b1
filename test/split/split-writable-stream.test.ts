import { describe, expect, test } from "vitest";
import { LineToNumberStream } from "../../src/numbers/line-to-number-stream.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { newUploadId } from "../../src/split/object-keys.ts";
import { PartSplitter } from "../../src/split/part-splitter.ts";
import { SplitWritableStream } from "../../src/split/split-writable-stream.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { ReadableStream } from "../../src/streams/index.ts";
import { chunkedStream } from "../support/bytes.ts";
import { sampleNumbers } from "../support/split-contract.ts";

function countingSplitter(): { splitter: PartSplitter; calls: () => number } {
  const splitter = new PartSplitter({
    store: new MemoryStore(),
    name: "w",
    uploadId: newUploadId(),
    maxPartBytes: 1 << 20,
  });
  let calls = 0;
  const write = splitter.write.bind(splitter);
  splitter.write = (numbers) => {
    calls += 1;
    return write(numbers);
  };
  return { splitter, calls: () => calls };
}

describe("SplitWritableStream", () => {
  test("a per-number producer reaches the splitter in batches (writev), not one call per number", async () => {
    const numbers = sampleNumbers(300_000);
    const input = encodeNumbers(numbers);
    const { splitter, calls } = countingSplitter();
    const sink = new SplitWritableStream<number>(splitter);
    const chunks = Array<number>(Math.ceil(input.length / (1 << 20))).fill(1 << 20);
    await ReadableStream.from(chunkedStream(input, chunks)).pipeThrough(new LineToNumberStream()).pipeTo(sink);
    const parts = await sink.parts;
    expect(parts.reduce((sum, part) => sum + part.numbers, 0)).toBe(numbers.length);
    expect(calls()).toBeLessThanOrEqual(
      2 * Math.ceil(numbers.length / 65_536) + 2 * Math.ceil(input.length / (1 << 20)),
    );
  });

  test("runs of single numbers reach the splitter in one Float64Array reused from batch to batch", async () => {
    const numbers = sampleNumbers(300_000);
    const { splitter } = countingSplitter();
    const buffers = new Set<ArrayBufferLike>();
    const write = splitter.write.bind(splitter);
    splitter.write = (values) => {
      expect(values).toBeInstanceOf(Float64Array);
      buffers.add((values as Float64Array).buffer);
      return write(values);
    };
    const sink = new SplitWritableStream<number>(splitter);
    await ReadableStream.from(numbers).pipeTo(sink);
    const parts = await sink.parts;
    expect(parts.reduce((sum, part) => sum + part.numbers, 0)).toBe(numbers.length);
    // The first batches grow the array (1, then the queue's size); every later batch reuses it.
    expect(buffers.size).toBeLessThanOrEqual(3);
  });

  test("mixed chunks keep their order", async () => {
    const { splitter } = countingSplitter();
    const sink = new SplitWritableStream(splitter);
    const writer = sink.getWriter();
    await Promise.all([
      writer.write(1),
      writer.write([2, 3]),
      writer.write(4),
      writer.write(5),
      writer.write(new Float64Array([6])),
      writer.close(),
    ]);
    const parts = await sink.parts;
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ numbers: 6, first: 1, last: 6, bytes: 12 });
  });

  test("an abort reaches the splitter and rejects parts", async () => {
    const { splitter } = countingSplitter();
    const sink = new SplitWritableStream(splitter);
    const writer = sink.getWriter();
    await writer.write(1);
    await writer.abort(new Error("stop"));
    await expect(sink.parts).rejects.toThrow("stop");
    expect(() => splitter.write([2])).toThrow(/aborted/);
  });
});
