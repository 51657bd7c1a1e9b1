import { afterEach, describe, expect, test, vi } from "vitest";
import { constructionsOf } from "../constructions.ts";

type Helpers = typeof import("../../../src/streams/standard/array-buffer-helpers.ts");

/** The helpers as a runtime without `ArrayBuffer.prototype.transfer` and `detached` (Node 20) loads them. */
async function helpersWithoutTransfer(): Promise<Helpers> {
  const names = ["transfer", "detached"] as const;
  const descriptors = names.map((name) => Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, name));
  for (const name of names) Reflect.deleteProperty(ArrayBuffer.prototype, name);
  try {
    vi.resetModules();
    return await import("../../../src/streams/standard/array-buffer-helpers.ts");
  } finally {
    names.forEach((name, index) => {
      const descriptor = descriptors[index];
      if (descriptor !== undefined) Object.defineProperty(ArrayBuffer.prototype, name, descriptor);
    });
  }
}

afterEach(() => {
  vi.resetModules();
});

describe("transferArrayBuffer without ArrayBuffer.prototype.transfer", () => {
  test("moves the bytes and detaches the source", async () => {
    const { transferArrayBuffer, isDetachedBuffer } = await helpersWithoutTransfer();
    const source = new Uint8Array([1, 2, 3]).buffer;
    const moved = transferArrayBuffer(source);
    expect([...new Uint8Array(moved)]).toEqual([1, 2, 3]);
    expect(isDetachedBuffer(source)).toBe(true);
  });

  test("tells a buffer with bytes was detached from its length alone, without the throwing probe", async () => {
    const { transferArrayBuffer } = await helpersWithoutTransfer();
    const source = new ArrayBuffer(64);
    expect(constructionsOf("Uint8Array", () => transferArrayBuffer(source))).toBe(0);
  });

  test("still transfers an empty buffer and refuses one it cannot detach", async () => {
    const { transferArrayBuffer } = await helpersWithoutTransfer();
    expect(transferArrayBuffer(new ArrayBuffer(0)).byteLength).toBe(0);
    const memory = new WebAssembly.Memory({ initial: 1 });
    expect(() => transferArrayBuffer(memory.buffer)).toThrow(TypeError);
    expect(memory.buffer.byteLength).toBe(65_536);
  });
});
