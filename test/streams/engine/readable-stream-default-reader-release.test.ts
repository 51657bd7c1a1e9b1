import { describe, expect, test } from "vitest";
import { ReadableStream } from "../../../src/streams/index.ts";
import { constructionsOf } from "../constructions.ts";

describe("releasing a default reader", () => {
  test("with no read pending, makes only the TypeError that rejects its closed promise", async () => {
    const reader = new ReadableStream<number>({ pull: (controller) => controller.enqueue(1) }).getReader();
    await reader.read();
    const closed = reader.closed;
    expect(constructionsOf("TypeError", () => reader.releaseLock())).toBe(1);
    await expect(closed).rejects.toBeInstanceOf(TypeError);
  });

  test("with reads pending, rejects each with a TypeError", async () => {
    const reader = new ReadableStream<number>().getReader();
    const reads = [reader.read(), reader.read()];
    expect(constructionsOf("TypeError", () => reader.releaseLock())).toBe(2);
    for (const read of reads) await expect(read).rejects.toBeInstanceOf(TypeError);
    await expect(reader.closed).rejects.toBeInstanceOf(TypeError);
  });

  test("after the release the stream can be locked again, and a second getReader while locked throws", () => {
    const stream = new ReadableStream<number>();
    stream.getReader().releaseLock();
    const reader = stream.getReader();
    expect(Object.getPrototypeOf(reader)).toBe(reader.constructor.prototype);
    expect(() => stream.getReader()).toThrow(TypeError);
  });
});
