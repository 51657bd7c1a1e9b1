import { describe, expect, test } from "vitest";
import { BufferPool } from "../../../src/streams/adapters/buffer-pool.ts";
import {
  DEFAULT_CHUNK_SIZE,
  type SizedByteSource,
  sizedByteStream,
} from "../../../src/streams/adapters/sized-byte-stream.ts";
import { ReadableStream } from "../../../src/streams/index.ts";
import { concat, memorySource, moveBuffer, patternBytes, readChunks } from "../byte-fixtures.ts";

/**
 * A misbehaving source: it keeps every view it was given and, on each fill, writes 0xff over every byte those
 * views covered, as a native writer holding on to a handed-out buffer would.
 */
function scribblingSource(bytes: Uint8Array): SizedByteSource {
  const inner = memorySource(bytes);
  const seen: { view: Uint8Array; length: number }[] = [];
  return {
    fill(view) {
      for (const old of seen) for (let i = 0; i < old.length; i++) old.view[i] = 0xff;
      seen.push({ view, length: view.byteLength });
      return inner.fill(view);
    },
  };
}

/** A pool that counts how many acquisitions reused a released buffer. */
class CountingPool extends BufferPool {
  reused = 0;

  override acquire(): Uint8Array<ArrayBuffer> {
    if (this.freeCount > 0) this.reused++;
    return super.acquire();
  }
}

describe("sizedByteStream", () => {
  test("is a drainpipe byte stream whose default reads get chunkSize-byte chunks", async () => {
    const bytes = patternBytes(10 * 1000 + 7);
    const stream = sizedByteStream(memorySource(bytes), { chunkSize: 1000 });
    expect(stream).toBeInstanceOf(ReadableStream);
    const chunks = await readChunks(stream);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([...Array<number>(10).fill(1000), 7]);
    expect(chunks.every((chunk) => chunk.buffer.byteLength === 1000)).toBe(true);
    expect(concat(chunks)).toEqual(bytes);
  });

  test("defaults to DEFAULT_CHUNK_SIZE", async () => {
    const source = memorySource(patternBytes(10));
    await readChunks(sizedByteStream(source));
    expect(source.fills[0]).toBe(DEFAULT_CHUNK_SIZE);
  });

  test("fills a BYOB reader's own view and honours { min } across short fills", async () => {
    const bytes = patternBytes(100);
    const source = memorySource(bytes, 7);
    const reader = sizedByteStream(source, { chunkSize: 4 }).getReader({ mode: "byob" });
    const { done, value } = await reader.read(new Uint8Array(64), { min: 30 });
    expect(done).toBe(false);
    expect(value!.byteLength).toBe(35);
    expect(value!.buffer.byteLength).toBe(64);
    expect(value).toEqual(bytes.subarray(0, 35));
    expect(source.fills).toEqual([64, 57, 50, 43, 36]);
  });

  test("closes on a fill of 0 bytes, also under a pending BYOB read", async () => {
    const reader = sizedByteStream(memorySource(patternBytes(3))).getReader({ mode: "byob" });
    expect((await reader.read(new Uint8Array(8))).value).toEqual(patternBytes(3));
    const last = await reader.read(new Uint8Array(8));
    expect(last.done).toBe(true);
    expect(last.value!.byteLength).toBe(0);
    await expect(reader.closed).resolves.toBeUndefined();
  });

  test("accepts the filled view when the fill moved the memory to a new buffer", async () => {
    const stream = sizedByteStream(
      {
        fill(view) {
          if (view.byteOffset !== 0) throw new Error("unexpected offset");
          const moved = new Uint8Array(moveBuffer(view.buffer), 0, 3);
          moved.set([7, 8, 9]);
          return moved;
        },
      },
      { chunkSize: 8 },
    );
    const reader = stream.getReader();
    const { value } = await reader.read();
    expect([...value!]).toEqual([7, 8, 9]);
  });

  test("errors when the fill reports more bytes than the view holds", async () => {
    const stream = sizedByteStream({ fill: () => 9 }, { chunkSize: 8 });
    await expect(stream.getReader().read()).rejects.toThrow(
      "Cannot use the source's fill result: it reports 9 bytes written into a view of 8 bytes",
    );
  });

  test("errors when the fill returns a view over other memory", async () => {
    const stream = sizedByteStream({ fill: () => new Uint8Array(8) }, { chunkSize: 8 });
    await expect(stream.getReader().read()).rejects.toThrow(TypeError);
  });

  test("errors when the fill detaches the view's buffer but reports a count", async () => {
    const stream = sizedByteStream(
      {
        fill(view) {
          moveBuffer(view.buffer);
          return 1;
        },
      },
      { chunkSize: 8 },
    );
    await expect(stream.getReader().read()).rejects.toThrow("the view's buffer was detached");
  });

  test("a failing fill errors the stream with the same error", async () => {
    const failure = new Error("disk gone");
    const reader = sizedByteStream({ fill: () => Promise.reject(failure) }).getReader();
    await expect(reader.read()).rejects.toBe(failure);
    await expect(reader.closed).rejects.toBe(failure);
  });

  test("rejects bad sizes and a chunkSize that disagrees with the pool", () => {
    const source = memorySource(patternBytes(1));
    expect(() => sizedByteStream(source, { chunkSize: 0 })).toThrow(RangeError);
    expect(() => sizedByteStream(source, { chunkSize: 4, pool: new BufferPool({ bufferSize: 8 }) })).toThrow(
      "chunkSize is 4 but the pool's bufferSize is 8",
    );
  });

  test("cancel reaches the source, and a fill settling afterwards is dropped", async () => {
    let finishFill: (count: number) => void = () => undefined;
    const reasons: unknown[] = [];
    const stream = sizedByteStream(
      {
        fill: () => new Promise<number>((resolve) => (finishFill = resolve)),
        cancel: (reason) => void reasons.push(reason),
      },
      { chunkSize: 8 },
    );
    const reader = stream.getReader();
    const pending = reader.read();
    await reader.cancel("stop");
    finishFill(8);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(reasons).toEqual(["stop"]);
    await expect(reader.closed).resolves.toBeUndefined();
  });

  test("never runs two fills at once, however many reads wait", async () => {
    let active = 0;
    let most = 0;
    let left = 20;
    const stream = sizedByteStream(
      {
        async fill(view) {
          most = Math.max(most, ++active);
          await new Promise((resolve) => setTimeout(resolve, 1));
          active--;
          if (left === 0) return 0;
          left--;
          view[0] = left;
          return 1;
        },
      },
      { chunkSize: 4 },
    );
    const reader = stream.getReader();
    const reads = await Promise.all(Array.from({ length: 21 }, () => reader.read()));
    expect(most).toBe(1);
    expect(reads.filter((read) => !read.done)).toHaveLength(20);
  });

  test("reads ahead up to highWaterMark bytes", async () => {
    const source = memorySource(patternBytes(100));
    const stream = sizedByteStream(source, { chunkSize: 10, highWaterMark: 30 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(source.fills).toEqual([10, 10, 10]);
    expect(concat(await readChunks(stream))).toEqual(patternBytes(100));
  });

  describe("buffer safety (workerd issue #4132: a buffer handed out was reused while still held)", () => {
    test("chunks a default reader holds never change, even when the source writes into old views", async () => {
      const bytes = patternBytes(64 * 50);
      const chunks = await readChunks(sizedByteStream(scribblingSource(bytes), { chunkSize: 64 }));
      expect(chunks).toHaveLength(50);
      expect(concat(chunks)).toEqual(bytes);
    });

    test("BYOB results the reader holds never change", async () => {
      const bytes = patternBytes(64 * 20);
      const reader = sizedByteStream(scribblingSource(bytes), { chunkSize: 64 }).getReader({ mode: "byob" });
      const held: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read(new Uint8Array(64));
        if (done) break;
        held.push(value);
      }
      expect(concat(held)).toEqual(bytes);
    });

    test("with a pool, held chunks never change and only released buffers are reused", async () => {
      const pool = new CountingPool({ bufferSize: 32, maxFree: 4 });
      const bytes = patternBytes(32 * 40);
      const reader = sizedByteStream(scribblingSource(bytes), { pool }).getReader();
      const held: Uint8Array[] = [];
      const heldCopies: Uint8Array[] = [];
      let released = 0;
      for (let i = 0; ; i++) {
        const { done, value } = await reader.read();
        if (done) break;
        if (i % 2 === 0) {
          held.push(value);
          heldCopies.push(value.slice());
        } else {
          expect(pool.release(value)).toBe(true);
          expect(value.byteLength).toBe(0);
          released++;
        }
      }
      expect(released).toBe(20);
      expect(held).toEqual(heldCopies);
      expect(held.map((chunk) => chunk[0])).toEqual(heldCopies.map((_, i) => bytes[i * 64]));
      expect(pool.reused).toBeGreaterThanOrEqual(20);
    });

    test("a pool reuses memory only after release: a pooled stream without releases allocates per chunk", async () => {
      const pool = new BufferPool({ bufferSize: 16 });
      const chunks = await readChunks(sizedByteStream(memorySource(patternBytes(16 * 5)), { pool }));
      expect(chunks).toHaveLength(5);
      expect(pool.freeCount).toBe(0);
      expect(concat(chunks)).toEqual(patternBytes(16 * 5));
    });
  });
});
