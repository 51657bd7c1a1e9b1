/**
 * Feeding one in-memory input to every variant in the same chunks, and reading stored parts back to check them.
 *
 * @module
 */
import type { ObjectStore } from "../../src/store/object-store.ts";
import { ReadableStream } from "../../src/streams/index.ts";

/**
 * The chunk size `fs.createReadStream` uses, which the Node `_writev` splitting article's pipeline read its file
 * with: 64 KiB.
 */
export const FILE_CHUNK_BYTES = 64 * 1024;

/**
 * Cuts `bytes` into views of `size` bytes (the last may be shorter); nothing is copied.
 *
 * @example
 * ```ts
 * chunksOf(new Uint8Array(10), 4).map((c) => c.length); // [4, 4, 2]
 * ```
 */
export function chunksOf(bytes: Uint8Array, size = FILE_CHUNK_BYTES): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

/** A `ReadableStream` class: drainpipe's or the runtime's own. */
export type ReadableStreamClass<R> = new (
  source: { pull(controller: { enqueue(chunk: Uint8Array): void; close(): void }): void },
  strategy: { highWaterMark: number },
) => R;

/**
 * A readable stream (of `Readable`, drainpipe's by default: the streams `src/numbers` and `src/split` are built
 * on) that hands out `chunks` one per pull, like a file read.
 *
 * @example
 * ```ts
 * const stream = streamOf(chunksOf(bytes));
 * const native = streamOf(chunksOf(bytes), globalThis.ReadableStream<Uint8Array>);
 * ```
 */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array>;
export function streamOf<R>(chunks: readonly Uint8Array[], Readable: ReadableStreamClass<R>): R;
export function streamOf<R>(
  chunks: readonly Uint8Array[],
  Readable?: ReadableStreamClass<R>,
): R | ReadableStream<Uint8Array> {
  let next = 0;
  const source = {
    pull(controller: { enqueue(chunk: Uint8Array): void; close(): void }) {
      const chunk = chunks[next++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  };
  return Readable
    ? new Readable(source, { highWaterMark: 0 })
    : new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
}

/**
 * Concatenates the objects under `keys` of `store`, in order.
 *
 * @throws {Error} when a key is missing.
 */
export async function readObjects(store: ObjectStore, keys: readonly string[]): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let total = 0;
  for (const key of keys) {
    const object = await store.get(key);
    if (!object) throw new Error(`Cannot read part "${key}": the store has no such object`);
    const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
    pieces.push(bytes);
    total += bytes.length;
  }
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}

/**
 * Whether `a` and `b` hold the same bytes.
 *
 * @example
 * ```ts
 * sameBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2)); // true
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The number of line breaks in `bytes`: its line count when it ends with one, as every benchmark input does.
 *
 * @example
 * ```ts
 * countLines(new TextEncoder().encode("2\n3\n")); // 2
 * ```
 */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lines++;
  return lines;
}
