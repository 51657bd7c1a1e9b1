import { afterEach, describe, expect, test, vi } from "vitest";
import { toFixedLengthNativeStream, toNativeStream } from "../../../src/streams/adapters/to-native.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../../src/streams/index.ts";
import { patternBytes } from "../byte-fixtures.ts";

/** A drainpipe stream of `bytes` in chunks of `size`, recording cancel reasons. */
function drainpipeBytes(bytes: Uint8Array, size: number) {
  const cancelled: unknown[] = [];
  let offset = 0;
  const stream = new DrainpipeReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
    cancel: (reason) => void cancelled.push(reason),
  });
  return { stream, cancelled };
}

async function nativeBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("toNativeStream", () => {
  test("is a native stream a Response can take as its body", async () => {
    const bytes = patternBytes(50_000);
    const native = toNativeStream(drainpipeBytes(bytes, 999).stream);
    expect(native).toBeInstanceOf(ReadableStream);
    expect(native).not.toBeInstanceOf(DrainpipeReadableStream);
    expect(await nativeBytes(native)).toEqual(bytes);
  });

  test("stays the platform's own stream where drainpipe's classes were installed as the globals", async () => {
    const HostReadableStream = globalThis.ReadableStream;
    vi.stubGlobal("ReadableStream", DrainpipeReadableStream);
    try {
      const bytes = patternBytes(5_000);
      const native = toNativeStream(drainpipeBytes(bytes, 999).stream);
      expect(native).toBeInstanceOf(HostReadableStream);
      expect(native).not.toBeInstanceOf(DrainpipeReadableStream);
      expect(await nativeBytes(native)).toEqual(bytes);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test("locks the drainpipe stream at once", () => {
    const { stream } = drainpipeBytes(patternBytes(1), 1);
    toNativeStream(stream);
    expect(stream.locked).toBe(true);
  });

  test("cancelling the native stream cancels the drainpipe stream with the same reason", async () => {
    const { stream, cancelled } = drainpipeBytes(patternBytes(100), 10);
    const reason = new Error("client went away");
    await toNativeStream(stream).cancel(reason);
    expect(cancelled).toEqual([reason]);
  });

  test("an error of the drainpipe stream errors the native stream with the same error", async () => {
    const failure = new Error("source failed");
    const stream = new DrainpipeReadableStream<Uint8Array>({ pull: (controller) => controller.error(failure) });
    await expect(toNativeStream(stream).getReader().read()).rejects.toBe(failure);
  });
});

describe("toFixedLengthNativeStream", () => {
  const globals = globalThis as { FixedLengthStream?: unknown };
  afterEach(() => {
    delete globals.FixedLengthStream;
  });

  test("without FixedLengthStream (Node) passes a stream of exactly the declared length", async () => {
    expect(globals.FixedLengthStream).toBeUndefined();
    const bytes = patternBytes(10_000);
    expect(await nativeBytes(toFixedLengthNativeStream(drainpipeBytes(bytes, 300).stream, 10_000))).toEqual(bytes);
  });

  test("errors when the stream is shorter than declared", async () => {
    const native = toFixedLengthNativeStream(drainpipeBytes(patternBytes(100), 30).stream, 101);
    await expect(nativeBytes(native)).rejects.toThrow(
      "Cannot end the stream: it has 100 bytes, its declared length is 101",
    );
  });

  test("errors and cancels the source when the stream is longer than declared", async () => {
    const { stream, cancelled } = drainpipeBytes(patternBytes(300), 30);
    const native = toFixedLengthNativeStream(stream, 99);
    await expect(nativeBytes(native)).rejects.toThrow(RangeError);
    expect(cancelled).toHaveLength(1);
    expect(String(cancelled[0])).toContain("longer than its declared length of 99");
  });

  test("rejects a length that is not a non-negative integer", () => {
    const { stream } = drainpipeBytes(patternBytes(1), 1);
    expect(() => toFixedLengthNativeStream(stream, -1)).toThrow(RangeError);
    expect(() => toFixedLengthNativeStream(stream, 0.5)).toThrow(
      "length must be a non-negative integer, current value is 0.5",
    );
    expect(stream.locked).toBe(false);
  });

  test("where globalThis.FixedLengthStream exists, returns its readable side fed with the stream", async () => {
    const made: number[] = [];
    class FakeFixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
      constructor(expectedLength: number) {
        super();
        made.push(expectedLength);
      }
    }
    globals.FixedLengthStream = FakeFixedLengthStream;
    const bytes = patternBytes(5000);
    const native = toFixedLengthNativeStream(drainpipeBytes(bytes, 512).stream, 5000);
    expect(made).toEqual([5000]);
    expect(await nativeBytes(native)).toEqual(bytes);
  });
});
