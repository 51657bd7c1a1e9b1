import { describe, expect, test } from "vitest";
import { ReadableStream } from "../../src/streams/index.ts";
import { HttpError } from "../../src/worker/http-error.ts";
import { declaredLength, limitBytes } from "../../src/worker/upload-limits.ts";

function bytesOf(...sizes: number[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const size of sizes) controller.enqueue(new Uint8Array(size));
      controller.close();
    },
  });
}

async function drain<T>(stream: ReadableStream<T>): Promise<unknown> {
  const reader = stream.getReader();
  try {
    for (;;) if ((await reader.read()).done) return undefined;
  } catch (error) {
    return error;
  }
}

describe("limitBytes", () => {
  test("passes a body within the limit and its declared length", async () => {
    expect(await drain(bytesOf(10, 20).pipeThrough(limitBytes(30, 30)))).toBeUndefined();
    expect(await drain(bytesOf(10, 20).pipeThrough(limitBytes(30, undefined)))).toBeUndefined();
  });

  test("errors with 413 once the body passes the limit", async () => {
    const error = (await drain(bytesOf(10, 20, 5).pipeThrough(limitBytes(30, undefined)))) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect([error.status, error.code]).toEqual([413, "body-too-large"]);
  });

  test.each([
    ["shorter", [10], 11],
    ["longer", [10, 2], 11],
  ])("errors with 400 when the body is %s than its Content-Length", async (_what, sizes, declared) => {
    const error = (await drain(bytesOf(...sizes).pipeThrough(limitBytes(100, declared)))) as HttpError;
    expect([error.status, error.code]).toEqual([400, "length-mismatch"]);
  });
});

describe("declaredLength", () => {
  const request = (length?: string) =>
    new Request("http://x/", { method: "POST", headers: length === undefined ? {} : { "Content-Length": length } });

  test("reads a valid Content-Length and allows none", () => {
    expect(declaredLength(request("42"), 100)).toBe(42);
    expect(declaredLength(request(), 100)).toBeUndefined();
  });

  test("refuses a declared length over the limit with 413 and a malformed one with 400", () => {
    expect(() => declaredLength(request("101"), 100)).toThrow(expect.objectContaining({ status: 413 }));
    expect(() => declaredLength(request("ten"), 100)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
