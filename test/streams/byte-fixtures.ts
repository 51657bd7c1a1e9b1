import type { SizedByteSource } from "../../src/streams/adapters/sized-byte-stream.ts";
import type { ReadableStream } from "../../src/streams/index.ts";

/** `length` bytes of a pattern that differs from one offset to the next within 251 bytes. */
export function patternBytes(length: number, seed = 0): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i + seed) % 251;
  return bytes;
}

/** The chunks of a drainpipe stream, read with a default reader to the end. */
export async function readChunks(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** The chunks laid end to end. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A sized byte source copying `bytes` into the views it is given, at most `maxPerFill` bytes per fill. */
export function memorySource(bytes: Uint8Array, maxPerFill = Infinity): SizedByteSource & { fills: number[] } {
  let offset = 0;
  const fills: number[] = [];
  return {
    fills,
    fill(view) {
      const count = Math.min(view.byteLength, bytes.byteLength - offset, maxPerFill);
      view.set(bytes.subarray(offset, offset + count));
      offset += count;
      fills.push(view.byteLength);
      return count;
    },
  };
}

/** Detaches `buffer`, returning a new ArrayBuffer that owns its memory (what native BYOB reads do). */
export function moveBuffer(buffer: ArrayBuffer): ArrayBuffer {
  return structuredClone(buffer, { transfer: [buffer] });
}
