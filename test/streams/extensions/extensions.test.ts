import { describe, expect, test } from "vitest";
import { ReadableStream, streamExtensions } from "../../../src/streams/index.ts";

describe("streamExtensions", () => {
  test("announces every extension and cannot be changed", () => {
    expect(streamExtensions).toEqual({ readMany: true, writev: true, pipeBatches: true, toAsyncStreamable: true });
    expect(Object.isFrozen(streamExtensions)).toBe(true);
  });

  test("agrees with what the reader actually offers", () => {
    const reader = new ReadableStream().getReader();
    expect(typeof reader.readMany === "function").toBe(streamExtensions.readMany);
  });

  test("agrees with what the stream offers the iterable-streams API", async () => {
    const stream = new ReadableStream<Uint8Array | string>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.enqueue("a");
        controller.close();
      },
    });
    const convert = (stream as unknown as Record<symbol, unknown>)[Symbol.for("Stream.toAsyncStreamable")];
    expect(typeof convert === "function").toBe(streamExtensions.toAsyncStreamable);
    const batches: Uint8Array[][] = [];
    for await (const batch of (convert as () => AsyncIterable<Uint8Array[]>).call(stream)) batches.push(batch);
    expect(batches).toEqual([[new Uint8Array([1]), new Uint8Array([97])]]);
  });
});
