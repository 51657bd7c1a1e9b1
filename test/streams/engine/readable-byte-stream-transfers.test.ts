import { afterEach, describe, expect, test, vi } from "vitest";

type Streams = typeof import("../../../src/streams/index.ts");

/** drainpipe's streams loaded with `ArrayBuffer.prototype.transfer` counted, and the count so far. */
async function streamsCountingTransfers(): Promise<{ streams: Streams; transfers: () => number }> {
  const descriptor = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "transfer")!;
  const transfer = descriptor.value as (this: ArrayBuffer) => ArrayBuffer;
  let count = 0;
  Object.defineProperty(ArrayBuffer.prototype, "transfer", {
    ...descriptor,
    value(this: ArrayBuffer) {
      count++;
      return transfer.call(this);
    },
  });
  try {
    vi.resetModules();
    const streams = await import("../../../src/streams/index.ts");
    return { streams, transfers: () => count };
  } finally {
    Object.defineProperty(ArrayBuffer.prototype, "transfer", descriptor);
  }
}

afterEach(() => {
  vi.resetModules();
});

describe("byte stream transfers", () => {
  test("a BYOB read served by an enqueue transfers the caller's buffer and the chunk's, nothing more", async () => {
    const { streams, transfers } = await streamsCountingTransfers();
    const reads = 20;
    let enqueued = 0;
    const stream = new streams.ReadableStream({
      type: "bytes",
      pull(controller) {
        controller.enqueue(new Uint8Array(64).fill(enqueued++));
        if (enqueued === reads) controller.close();
      },
    });
    const reader = stream.getReader({ mode: "byob" });
    const before = transfers();
    let view = new Uint8Array(4096);
    const firstBytes: number[] = [];
    for (let read = 0; read < reads; read++) {
      const { value } = await reader.read(view);
      expect(value!.byteLength).toBe(64);
      firstBytes.push(value![0]!);
      view = new Uint8Array(value!.buffer, 0, 4096);
    }
    expect(firstBytes).toEqual(Array.from({ length: reads }, (_, index) => index));
    expect(transfers() - before).toBe(2 * reads);
  });

  test("a byobRequest view the source kept is detached by the next enqueue, as the standard says", async () => {
    const { streams } = await streamsCountingTransfers();
    let kept: Uint8Array | undefined;
    const stream = new streams.ReadableStream({
      type: "bytes",
      pull(controller) {
        kept = controller.byobRequest!.view as Uint8Array;
        controller.enqueue(new Uint8Array([7]));
      },
    });
    const { value } = await stream.getReader({ mode: "byob" }).read(new Uint8Array(8));
    expect([...value!]).toEqual([7]);
    expect(kept!.byteLength).toBe(0);
    expect(value!.buffer).not.toBe(kept!.buffer);
  });

  test("a view the source responded into is detached, and the read gets the bytes", async () => {
    const { streams } = await streamsCountingTransfers();
    let kept: Uint8Array | undefined;
    const stream = new streams.ReadableStream({
      type: "bytes",
      pull(controller) {
        const request = controller.byobRequest!;
        kept = request.view as Uint8Array;
        kept[0] = 9;
        request.respond(1);
      },
    });
    const { value } = await stream.getReader({ mode: "byob" }).read(new Uint8Array(8));
    expect([...value!]).toEqual([9]);
    expect(kept!.byteLength).toBe(0);
  });

  test("a BYOB read filled from many queued chunks makes one view per chunk copied, not two", async () => {
    const { streams } = await streamsCountingTransfers();
    const Original = globalThis.Uint8Array;
    const pieces = 32;
    let enqueued = 0;
    const stream = new streams.ReadableStream({
      type: "bytes",
      pull(controller) {
        controller.enqueue(new Original(64).fill(enqueued++));
      },
    });
    const reader = stream.getReader({ mode: "byob" });
    const view = new Original(64 * pieces);
    let made = 0;
    globalThis.Uint8Array = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made++;
      }
    } as Uint8ArrayConstructor;
    let value: Uint8Array | undefined;
    try {
      ({ value } = await reader.read(view, { min: view.byteLength }));
    } finally {
      globalThis.Uint8Array = Original;
    }
    expect(Array.from({ length: pieces }, (_, index) => value![64 * index])).toEqual(
      Array.from({ length: pieces }, (_, index) => index),
    );
    // One view of each chunk's bytes, and one of the read's buffer to copy them into.
    expect(made).toBe(pieces + 1);
  });
});
