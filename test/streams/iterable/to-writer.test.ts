import { describe, expect, test } from "vitest";
import { ByteLengthQueuingStrategy, WritableStream } from "../../../src/streams/index.ts";
import { drainableProtocol, toWriter } from "../../../src/streams/iterable/index.ts";

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** A drainpipe sink recording the calls it gets; each write completes when `release()` is called, if held. */
function recordingSink(options: { writev?: boolean; held?: boolean; highWaterMark?: number } = {}) {
  const calls: string[] = [];
  const written: number[] = [];
  const waiting: (() => void)[] = [];
  let queuedMax = 0;
  const settle = (): Promise<void> | undefined =>
    options.held ? new Promise<void>((resolve) => waiting.push(resolve)) : undefined;
  const sink = {
    write(chunk: Uint8Array) {
      calls.push("write 1");
      written.push(...chunk);
      return settle();
    },
    ...(options.writev === false
      ? {}
      : {
          writev(chunks: Uint8Array[]) {
            calls.push(`writev ${chunks.length}`);
            for (const chunk of chunks) written.push(...chunk);
            return settle();
          },
        }),
  };
  const stream = new WritableStream<Uint8Array>(sink, { highWaterMark: options.highWaterMark ?? 16 });
  return {
    stream,
    calls,
    written,
    release: () => waiting.shift()?.(),
    pending: () => waiting.length,
    observeQueue: (writer: { desiredSize: number | null }) => {
      queuedMax = Math.max(queuedMax, (options.highWaterMark ?? 16) - (writer.desiredSize ?? 0));
      return queuedMax;
    },
  };
}

async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe("toWriter", () => {
  test("writev hands a batch to a sink with writev in one call, and end resolves with the bytes written", async () => {
    const { stream, calls, written } = recordingSink();
    const writer = toWriter(stream);
    await writer.writev([bytes(1), bytes(2, 3), bytes(4)]);
    await writer.writev([bytes(5), bytes(6)]);
    expect(await writer.end()).toBe(6);
    expect(calls).toEqual(["writev 3", "writev 2"]);
    expect(written).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("the sync forms accept where the queue has room, and refuse (false) where it has not", async () => {
    const sink = recordingSink({ held: true, highWaterMark: 4 });
    const writer = toWriter(sink.stream);
    expect(writer.writevSync([bytes(1), bytes(2), bytes(3)])).toBe(true);
    expect(writer.writevSync([bytes(4), bytes(5)])).toBe(false);
    expect(writer.writeSync(bytes(4))).toBe(true);
    expect(writer.canWrite).toBe(false);
    expect(writer.writeSync(bytes(5))).toBe(false);
    expect(writer.endSync()).toBe(-1);
    await settled();
    sink.release();
    await settled();
    expect(writer.canWrite).toBe(true);
    expect(writer.writeSync("six")).toBe(true);
    let ended = false;
    const ending = writer.end().finally(() => (ended = true));
    while (!ended) {
      sink.release();
      await settled();
    }
    expect(await ending).toBe(7);
    expect(writer.endSync()).toBe(7);
    expect(sink.written).toEqual([1, 2, 3, 4, 0x73, 0x69, 0x78]);
  });

  test("backpressure holds: a slow sink never has more than its high-water mark queued", async () => {
    const sink = recordingSink({ held: true, highWaterMark: 8 });
    const writer = toWriter(sink.stream);
    let most = 0;
    const writes = (async () => {
      for (let batch = 0; batch < 10; batch++) {
        await writer.writev(Array.from({ length: 5 }, (_, i) => bytes(batch * 5 + i)));
        most = sink.observeQueue(writer);
      }
      return writer.end();
    })();
    let done = false;
    writes.then(() => (done = true));
    while (!done) {
      most = sink.observeQueue(writer);
      sink.release();
      await settled();
    }
    expect(await writes).toBe(50);
    expect(most).toBeLessThanOrEqual(8);
    expect(sink.written).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(sink.calls.every((call) => call === "write 1" || /^writev [2-8]$/.test(call))).toBe(true);
  });

  test("a strategy that sizes chunks (bytes) still caps the queue: chunks are taken while there is room", async () => {
    const calls: number[] = [];
    const waiting: (() => void)[] = [];
    const stream = new WritableStream<Uint8Array>(
      {
        write(chunk) {
          calls.push(chunk.byteLength);
          return new Promise<void>((resolve) => waiting.push(resolve));
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 10 }),
    );
    const writer = toWriter(stream);
    let most = 0;
    let ended = false;
    const writing = writer
      .writev(Array.from({ length: 6 }, () => new Uint8Array(4)))
      .then(() => writer.end())
      .finally(() => (ended = true));
    while (!ended) {
      most = Math.max(most, 10 - (writer.desiredSize ?? 10));
      waiting.shift()?.();
      await settled();
    }
    expect(await writing).toBe(24);
    expect(calls).toEqual([4, 4, 4, 4, 4, 4]);
    // A chunk is taken while desiredSize > 0, before its size is known: at most one chunk over the mark.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(10 + 4);
  });

  test("a sink error rejects the next write and end with that error", async () => {
    const cause = new RangeError("disk full");
    const writer = toWriter(
      new WritableStream<Uint8Array>({
        write() {
          throw cause;
        },
      }),
    );
    await writer.write(bytes(1));
    await settled();
    await expect(writer.write(bytes(2))).rejects.toBe(cause);
    await expect(writer.end()).rejects.toBe(cause);
  });

  test("fail(reason) aborts the stream with the reason; later writes reject with it", async () => {
    const aborted: unknown[] = [];
    const writer = toWriter(new WritableStream<Uint8Array>({ abort: (reason) => void aborted.push(reason) }));
    const reason = new Error("upstream failed");
    writer.fail(reason);
    await settled();
    expect(aborted).toEqual([reason]);
    expect(writer.desiredSize).toBeNull();
    expect(writer[drainableProtocol]()).toBeNull();
    await expect(writer.write(bytes(1))).rejects.toBe(reason);
    await expect(writer.end()).rejects.toBe(reason);
  });

  test("the drainable protocol: true at once with room, later when the queue drains, null once ended", async () => {
    const sink = recordingSink({ held: true, highWaterMark: 1 });
    const writer = toWriter(sink.stream);
    await expect(writer[drainableProtocol]()).resolves.toBe(true);
    writer.writeSync(bytes(1));
    let drained: boolean | undefined;
    writer[drainableProtocol]()?.then((value) => (drained = value));
    await settled();
    expect(drained).toBeUndefined();
    sink.release();
    await settled();
    expect(drained).toBe(true);
    const ending = writer.end();
    expect(writer[drainableProtocol]()).toBeNull();
    await ending;
  });

  test("a write waiting for room stops at its signal's abort; chunks accepted before stay", async () => {
    const sink = recordingSink({ held: true, highWaterMark: 1 });
    const writer = toWriter(sink.stream);
    const controller = new AbortController();
    const waiting = writer.writev([bytes(1), bytes(2)], { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    await expect(writer.write(bytes(3), { signal: controller.signal })).rejects.toThrow("stop");
    sink.release();
    await settled();
    expect(sink.written).toEqual([1]);
  });

  test("writes into the host's own WritableStream through its public writer", async () => {
    const written: number[] = [];
    const writer = toWriter(
      new globalThis.WritableStream<Uint8Array>({ write: (chunk) => void written.push(...chunk) }),
    );
    await writer.writev([bytes(1), bytes(2)]);
    await writer.write("A");
    expect(await writer.end()).toBe(3);
    expect(written).toEqual([1, 2, 65]);
  });

  test("refuses what is not a WritableStream, and a locked one", () => {
    expect(() => toWriter({} as WritableStream<Uint8Array>)).toThrow(
      "Cannot make a writer: the argument is not a WritableStream",
    );
    const stream = new WritableStream<Uint8Array>();
    stream.getWriter();
    expect(() => toWriter(stream)).toThrow("Cannot make a writer: the WritableStream is locked");
  });

  test("a chunk that is neither bytes nor a string rejects write and throws from writeSync", async () => {
    const writer = toWriter(new WritableStream<Uint8Array>());
    await expect(writer.write(1 as unknown as Uint8Array)).rejects.toThrow(TypeError);
    expect(() => writer.writevSync([{} as Uint8Array])).toThrow(TypeError);
  });
});
