import { describe, expect, test } from "vitest";
import { ReadableStream, streamExtensions } from "../../../src/streams/index.ts";

describe("streamExtensions", () => {
  test("announces every extension and cannot be changed", () => {
    expect(streamExtensions).toEqual({ readMany: true, writev: true, pipeBatches: true });
    expect(Object.isFrozen(streamExtensions)).toBe(true);
  });

  test("agrees with what the reader actually offers", () => {
    const reader = new ReadableStream().getReader();
    expect(typeof reader.readMany === "function").toBe(streamExtensions.readMany);
  });
});
