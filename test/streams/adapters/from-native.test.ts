import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { BufferPool } from "../../../src/streams/adapters/buffer-pool.ts";
import { fromNativeStream } from "../../../src/streams/adapters/from-native.ts";
import { ReadTimeoutError } from "../../../src/streams/adapters/read-pace.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../../src/streams/index.ts";
import { chunkedStream } from "../../support/bytes.ts";
import { concat, moveBuffer, patternBytes, readChunks } from "../byte-fixtures.ts";

const MiB = 1024 * 1024;

/** A native byte stream that enqueues `bytes` `perPull` bytes at a time. */
function nativeByteStream(bytes: Uint8Array, perPull: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const count = Math.min(perPull, bytes.byteLength - offset);
      controller.enqueue(bytes.slice(offset, offset + count));
      offset += count;
    },
  });
}

/** What a native source's pull is given: a default controller, or a byte one (with its BYOB request). */
type NativeController = ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController;

/** A native byte stream (`"bytes"`) or value stream (`"values"`) of Uint8Array chunks over `pull` and `cancel`. */
function nativeStream(
  kind: "bytes" | "values",
  pull: (controller: NativeController) => void | Promise<void>,
  cancel: (reason: unknown) => void,
): ReadableStream<Uint8Array> {
  return kind === "bytes"
    ? new ReadableStream({ type: "bytes", pull, cancel })
    : new ReadableStream<Uint8Array>({ pull, cancel });
}

interface FakeOptions {
  /** Most bytes one `read(view)` hands out. */
  perRead: number;
  /** Whether the reader has workerd's `readAtLeast`. */
  hasReadAtLeast: boolean;
}

/** A stand-in for a platform byte stream that records its reads and how many were pending at once. */
function fakeNativeByteStream(bytes: Uint8Array, options: FakeOptions) {
  const log = { reads: 0, readAtLeastCalls: 0, readsWithOptions: 0, mostPending: 0 };
  let offset = 0;
  let pending = 0;
  const deliver = async (view: Uint8Array<ArrayBuffer>, min: number) => {
    log.reads++;
    log.mostPending = Math.max(log.mostPending, ++pending);
    await new Promise((resolve) => setTimeout(resolve, 0));
    pending--;
    const count = Math.min(view.byteLength, bytes.byteLength - offset, Math.max(min, options.perRead));
    const byteOffset = view.byteOffset;
    const moved = new Uint8Array(moveBuffer(view.buffer), byteOffset, count);
    moved.set(bytes.subarray(offset, offset + count));
    offset += count;
    return { done: count === 0, value: moved };
  };
  const reader = {
    read(view: Uint8Array<ArrayBuffer>, readOptions?: unknown) {
      if (readOptions !== undefined) log.readsWithOptions++;
      return deliver(view, 1);
    },
    readAtLeast: options.hasReadAtLeast
      ? (min: number, view: Uint8Array<ArrayBuffer>) => {
          log.readAtLeastCalls++;
          return deliver(view, min);
        }
      : undefined,
    cancel: () => Promise.resolve(),
  };
  const stream = { locked: false, getReader: () => reader };
  return { stream: stream as unknown as ReadableStream<Uint8Array>, log };
}

describe("fromNativeStream", () => {
  test("turns many small chunks of a native byte stream into reads of 1 MiB", async () => {
    const bytes = patternBytes(2.5 * MiB);
    const stream = fromNativeStream(nativeByteStream(bytes, 4096));
    expect(stream).toBeInstanceOf(DrainpipeReadableStream);
    const chunks = await readChunks(stream);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([MiB, MiB, MiB / 2]);
    expect(concat(chunks)).toEqual(bytes);
  });

  test("copies the chunks of a native value stream into reads of readSize", async () => {
    const bytes = patternBytes(10_000);
    const native = chunkedStream(bytes, Array<number>(12).fill(700));
    const chunks = await readChunks(fromNativeStream(native, { readSize: 4096 }));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([4096, 4096, 10_000 - 8192]);
    expect(concat(chunks)).toEqual(bytes);
  });

  test("adapts a Response body", async () => {
    const bytes = patternBytes(300_000);
    const chunks = await readChunks(fromNativeStream(new Response(bytes).body!, { readSize: 64 * 1024 }));
    expect(chunks.slice(0, -1).every((chunk) => chunk.byteLength === 64 * 1024)).toBe(true);
    expect(concat(chunks)).toEqual(bytes);
  });

  test("fills the whole view of a BYOB read", async () => {
    const bytes = patternBytes(50_000);
    const reader = fromNativeStream(nativeByteStream(bytes, 1000)).getReader({ mode: "byob" });
    const first = await reader.read(new Uint8Array(30_000), { min: 1 });
    expect(first.value).toEqual(bytes.subarray(0, 30_000));
    const second = await reader.read(new Uint8Array(30_000));
    expect(second.value).toEqual(bytes.subarray(30_000));
    expect((await reader.read(new Uint8Array(1))).done).toBe(true);
  });

  test("keeps one native read pending however many reads wait", async () => {
    const bytes = patternBytes(100_000);
    const { stream, log } = fakeNativeByteStream(bytes, { perRead: 3000, hasReadAtLeast: false });
    const reader = fromNativeStream(stream, { readSize: 10_000 }).getReader();
    const reads = await Promise.all(Array.from({ length: 12 }, () => reader.read()));
    expect(log.mostPending).toBe(1);
    expect(log.reads).toBeGreaterThan(30);
    expect(concat(reads.flatMap((read) => (read.value ? [read.value] : [])))).toEqual(bytes);
  });

  test("uses readAtLeast for the rest of the view where the reader has it (workerd)", async () => {
    const bytes = patternBytes(100_000);
    const { stream, log } = fakeNativeByteStream(bytes, { perRead: 3000, hasReadAtLeast: true });
    const chunks = await readChunks(fromNativeStream(stream, { readSize: 10_000 }));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual(Array<number>(10).fill(10_000));
    expect(concat(chunks)).toEqual(bytes);
    expect(log.reads).toBe(11);
    expect(log.readAtLeastCalls).toBe(11);
  });

  test("elsewhere fills each view with plain BYOB reads, never passing { min }", async () => {
    const bytes = patternBytes(100_000);
    const { stream, log } = fakeNativeByteStream(bytes, { perRead: 3000, hasReadAtLeast: false });
    const chunks = await readChunks(fromNativeStream(stream, { readSize: 10_000 }));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual(Array<number>(10).fill(10_000));
    expect(concat(chunks)).toEqual(bytes);
    expect(log.reads).toBe(41);
    expect(log.readsWithOptions).toBe(0);
  });

  test("reads the tail of a native byte stream that closed with bytes still queued", async () => {
    const bytes = patternBytes(2.5 * MiB + 3);
    const native = new ReadableStream({
      type: "bytes",
      start(controller) {
        controller.enqueue(bytes.slice());
        controller.close();
      },
    });
    const chunks = await readChunks(fromNativeStream(native));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([MiB, MiB, MiB / 2 + 3]);
    expect(concat(chunks)).toEqual(bytes);
  });

  test("cancel reaches the native stream with the same reason, also during a pending read", async () => {
    const reasons: unknown[] = [];
    const native = new ReadableStream<Uint8Array>({
      type: "bytes",
      pull: () => new Promise<void>(() => undefined),
      cancel: (reason) => void reasons.push(reason),
    });
    const reader = fromNativeStream(native).getReader();
    const pending = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await reader.cancel("enough");
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(reasons).toEqual(["enough"]);
  });

  test("cancel reaches a native value stream", async () => {
    const reasons: unknown[] = [];
    const native = new ReadableStream<Uint8Array>({ cancel: (reason) => void reasons.push(reason) });
    await fromNativeStream(native).cancel("bye");
    expect(reasons).toEqual(["bye"]);
  });

  test.each([
    ["byte", "bytes" as const],
    ["value", undefined],
  ])("an error of a native %s stream errors the adapted stream with the same error", async (_kind, type) => {
    const failure = new Error("connection reset");
    let sent = false;
    const native = new ReadableStream<Uint8Array>({
      type,
      pull(controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) {
        if (sent) controller.error(failure);
        else controller.enqueue(new Uint8Array(10));
        sent = true;
      },
    } as UnderlyingDefaultSource<Uint8Array>);
    const reader = fromNativeStream(native).getReader();
    await expect(reader.read()).rejects.toBe(failure);
    await expect(reader.closed).rejects.toBe(failure);
  });

  test("refuses a locked native stream", () => {
    const native = new ReadableStream<Uint8Array>();
    native.getReader();
    expect(() => fromNativeStream(native)).toThrow("Cannot adapt the native stream: it is locked to a reader");
  });

  test("errors on a native chunk that is not bytes", async () => {
    const native = new ReadableStream<unknown>({ start: (controller) => controller.enqueue("text") });
    const reader = fromNativeStream(native as ReadableStream<Uint8Array>).getReader();
    await expect(reader.read()).rejects.toThrow(
      "Cannot adapt a native stream chunk: it is string, not an ArrayBufferView",
    );
  });

  test("takes default-read buffers from a pool", async () => {
    const pool = new BufferPool({ bufferSize: 8192 });
    const bytes = patternBytes(20_000);
    const reader = fromNativeStream(nativeByteStream(bytes, 1000), { pool }).getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBe(8192);
    const firstCopy = first.value!.slice();
    expect(pool.release(first.value!)).toBe(true);
    const second = await reader.read();
    expect(second.value).toEqual(bytes.subarray(8192, 16_384));
    expect(firstCopy).toEqual(bytes.subarray(0, 8192));
    expect(pool.freeCount).toBe(0);
  });

  describe("drainOnCancel", () => {
    /** A native stream of `total` bytes (byte or value stream) that counts the bytes pulled and the cancels. */
    function countingStream(kind: "bytes" | "values", total: number) {
      const seen = { pulled: 0, cancels: 0 };
      const pull = (controller: NativeController) => {
        const count = Math.min(10_000, total - seen.pulled);
        if (count === 0) {
          controller.close();
          if ("byobRequest" in controller) controller.byobRequest?.respond(0);
          return;
        }
        seen.pulled += count;
        controller.enqueue(new Uint8Array(count));
      };
      const cancel = () => {
        seen.cancels++;
      };
      return { stream: nativeStream(kind, pull, cancel), seen };
    }

    for (const kind of ["bytes", "values"] as const) {
      test(`a ${kind} stream is read to its end instead of cancelled when the rest fits the budget`, async () => {
        const { stream, seen } = countingStream(kind, 300_000);
        const reader = fromNativeStream(stream, { readSize: 64 * 1024, drainOnCancel: 1 << 20 }).getReader();
        expect((await reader.read()).value?.byteLength).toBe(64 * 1024);
        await reader.cancel(new Error("bad line"));
        expect(seen).toEqual({ pulled: 300_000, cancels: 0 });
      });

      test(`a ${kind} stream is cancelled once the budget is spent`, async () => {
        const { stream, seen } = countingStream(kind, 10_000_000);
        const reader = fromNativeStream(stream, { readSize: 64 * 1024, drainOnCancel: 200_000 }).getReader();
        await reader.read();
        await reader.cancel(new Error("too large"));
        expect(seen.cancels).toBe(1);
        expect(seen.pulled).toBeGreaterThanOrEqual(64 * 1024 + 200_000);
        expect(seen.pulled).toBeLessThan(64 * 1024 + 200_000 + 200_000);
      });
    }

    test("waits for the native read in progress before draining (one pending read at a time)", async () => {
      const { stream, log } = fakeNativeByteStream(patternBytes(500_000), { perRead: 50_000, hasReadAtLeast: true });
      const reader = fromNativeStream(stream, { readSize: 100_000, drainOnCancel: 1 << 20 }).getReader();
      const pending = reader.read();
      await reader.cancel(new Error("stop"));
      await pending.catch(() => undefined);
      expect(log.mostPending).toBe(1);
    });

    test("a negative budget is refused", () => {
      expect(() => fromNativeStream(new Response("1\n").body!, { drainOnCancel: -1 })).toThrow(RangeError);
    });
  });

  describe("pace", () => {
    const pace = { idleMs: 1000, bytesPerSecond: 1000 };
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A native stream that sends `first` bytes, then nothing, and records how it was cancelled. */
    function stallingStream(kind: "bytes" | "values", first: number) {
      const seen: { cancelledWith: unknown[] } = { cancelledWith: [] };
      let sent = false;
      const pull = (controller: NativeController) => {
        if (sent) return new Promise<void>(() => {});
        sent = true;
        controller.enqueue(new Uint8Array(first));
      };
      const cancel = (reason: unknown) => {
        seen.cancelledWith.push(reason);
      };
      return { stream: nativeStream(kind, pull, cancel), seen };
    }

    for (const kind of ["bytes", "values"] as const) {
      test(`a ${kind} stream that stops sending errors the read at idleMs + bytes / bytesPerSecond`, async () => {
        const { stream, seen } = stallingStream(kind, 100);
        const reader = fromNativeStream(stream, { readSize: 2000, pace }).getReader();
        const read = reader.read();
        const outcome = read.then(
          () => "read",
          (error: unknown) => error,
        );
        await vi.advanceTimersByTimeAsync(2999);
        expect(await Promise.race([outcome, Promise.resolve("pending")])).toBe("pending");
        await vi.advanceTimersByTimeAsync(1);
        const error = await outcome;
        expect(error).toBeInstanceOf(ReadTimeoutError);
        expect(error).toMatchObject({ bytes: 2000, timeoutMs: 3000 });
        expect(seen.cancelledWith).toEqual([error]);
        await expect(reader.read()).rejects.toBe(error);
      });
    }

    test("a stream that keeps the pace is read whole", async () => {
      const bytes = patternBytes(300_000);
      const chunks = readChunks(fromNativeStream(nativeByteStream(bytes, 10_000), { readSize: 64 * 1024, pace }));
      await vi.runAllTimersAsync();
      expect(concat(await chunks)).toEqual(bytes);
    });

    test("bounds the drain after a cancel: a stalled body is cancelled at the drain read's deadline", async () => {
      const { stream, seen } = stallingStream("bytes", 100);
      const reader = fromNativeStream(stream, { readSize: 100, pace, drainOnCancel: 1 << 30 }).getReader();
      expect((await reader.read()).value?.byteLength).toBe(100);
      const cancelled = reader.cancel(new Error("bad line"));
      await vi.advanceTimersByTimeAsync(1000 + 65_536);
      await cancelled;
      expect(seen.cancelledWith).toEqual([expect.any(ReadTimeoutError)]);
    });

    test("a pace without a positive rate or idle time is refused", () => {
      const body = () => new Response("1\n").body!;
      expect(() => fromNativeStream(body(), { pace: { idleMs: 0, bytesPerSecond: 1 } })).toThrow(RangeError);
      expect(() => fromNativeStream(body(), { pace: { idleMs: 1, bytesPerSecond: 0 } })).toThrow(RangeError);
    });
  });
});
