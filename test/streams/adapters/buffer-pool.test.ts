import { describe, expect, test } from "vitest";
import { BufferPool, DEFAULT_MAX_FREE_BUFFERS } from "../../../src/streams/adapters/buffer-pool.ts";

describe("BufferPool", () => {
  test("rejects sizes that are not positive integers", () => {
    expect(() => new BufferPool({ bufferSize: 0 })).toThrow(RangeError);
    expect(() => new BufferPool({ bufferSize: 1.5 })).toThrow(
      "bufferSize must be a positive integer, current value is 1.5",
    );
    expect(() => new BufferPool({ bufferSize: 8, maxFree: -1 })).toThrow(RangeError);
  });

  test("hands out whole buffers of bufferSize bytes, fresh while none was released", () => {
    const pool = new BufferPool({ bufferSize: 16 });
    const a = pool.acquire();
    const b = pool.acquire();
    expect(a.byteLength).toBe(16);
    expect(a.byteOffset).toBe(0);
    expect(a.buffer.byteLength).toBe(16);
    expect(a.buffer).not.toBe(b.buffer);
    expect(pool.maxFree).toBe(DEFAULT_MAX_FREE_BUFFERS);
  });

  test("release detaches every view of the buffer and the memory comes back from acquire", () => {
    const pool = new BufferPool({ bufferSize: 8 });
    const chunk = pool.acquire();
    chunk.set([1, 2, 3, 4, 5, 6, 7, 8]);
    const part = chunk.subarray(2, 5);
    expect(pool.release(part)).toBe(true);
    expect(chunk.byteLength).toBe(0);
    expect(part.byteLength).toBe(0);
    expect(pool.freeCount).toBe(1);
    const reused = pool.acquire();
    expect([...reused]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(pool.freeCount).toBe(0);
  });

  test("refuses buffers that cannot be its own, leaving them untouched", () => {
    const pool = new BufferPool({ bufferSize: 8 });
    const other = new Uint8Array(9);
    expect(pool.release(other)).toBe(false);
    expect(other.byteLength).toBe(9);
    const chunk = pool.acquire();
    expect(pool.release(chunk)).toBe(true);
    expect(pool.release(chunk)).toBe(false);
    expect(pool.freeCount).toBe(1);
    const ResizableArrayBuffer = ArrayBuffer as new (length: number, options: { maxByteLength: number }) => ArrayBuffer;
    const resizable = new Uint8Array(new ResizableArrayBuffer(8, { maxByteLength: 16 }));
    expect(pool.release(resizable)).toBe(false);
    expect(resizable.byteLength).toBe(8);
    const shared = new Uint8Array(new SharedArrayBuffer(8));
    expect(pool.release(shared)).toBe(false);
  });

  test("keeps at most maxFree released buffers", () => {
    const pool = new BufferPool({ bufferSize: 4, maxFree: 2 });
    const chunks = [pool.acquire(), pool.acquire(), pool.acquire()];
    for (const chunk of chunks) expect(pool.release(chunk)).toBe(true);
    expect(pool.freeCount).toBe(2);
    expect(chunks.every((chunk) => chunk.byteLength === 0)).toBe(true);
  });
});
