import { describe, expect, test } from "vitest";
import { TransformStream } from "../../../src/streams/index.ts";
import { promisesPerChunkOf } from "../pipe-cost.ts";

/**
 * A producer awaiting `ready` before each `write` into an identity TransformStream while a reader loop reads the
 * other side (the matrix's push shape); returns the sum read.
 */
async function push(Stream: typeof TransformStream, count: number): Promise<number> {
  const { writable, readable } = new Stream<number, number>();
  const produce = async () => {
    const writer = writable.getWriter();
    for (let index = 0; index < count; index++) {
      await writer.ready;
      void writer.write(index);
    }
    await writer.close();
  };
  let sum = 0;
  const consume = async () => {
    const reader = readable.getReader();
    for (let result = await reader.read(); !result.done; result = await reader.read()) sum += result.value;
  };
  await Promise.all([produce(), consume()]);
  return sum;
}

describe("TransformStream cost", () => {
  test("a writer pushing through it while a reader reads makes 8 promises per chunk, as native does", async () => {
    expect(await push(TransformStream, 1000)).toBe((1000 * 999) / 2);
    // write()'s promise, ready's (materialised by the await), the read's, the two awaits, the reaction to the
    // backpressure change, the transform's result one job later and the writable side's reaction to it.
    expect(await promisesPerChunkOf((count) => push(TransformStream, count), 1000)).toBeCloseTo(8, 2);
    expect(
      await promisesPerChunkOf((count) => push(globalThis.TransformStream as typeof TransformStream, count), 1000),
    ).toBeCloseTo(8, 2);
  });
});
