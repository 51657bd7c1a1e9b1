/**
 * The bytes of one chunk as the iterable-streams API sees them.
 * @module
 */

const encoder = new TextEncoder();

/**
 * `chunk` as a `Uint8Array`: a `Uint8Array` as it is, another view or an `ArrayBuffer` as a `Uint8Array` over the
 * same memory, a string UTF-8 encoded.
 *
 * @throws {TypeError} "Cannot convert a chunk to bytes: …" for any other value.
 * @example
 * ```ts
 * chunkBytes("é"); // new Uint8Array([0xc3, 0xa9])
 * chunkBytes(42); // throws TypeError "Cannot convert a chunk to bytes: it is a number, not bytes or a string"
 * ```
 */
export function chunkBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === "string") return encoder.encode(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  const kind =
    chunk === null || chunk === undefined
      ? String(chunk)
      : typeof chunk === "object"
        ? "an object"
        : `a ${typeof chunk}`;
  throw new TypeError(`Cannot convert a chunk to bytes: it is ${kind}, not bytes or a string`);
}

/**
 * Every chunk of `chunks` as a `Uint8Array` (see {@link chunkBytes}): the array itself when each already is one.
 *
 * @throws {TypeError} "Cannot convert a chunk to bytes: …" when one is neither bytes nor a string.
 * @example
 * ```ts
 * const batch = [new Uint8Array([1])];
 * batchBytes(batch) === batch; // true
 * batchBytes(["a", new Uint8Array([2])]); // [new Uint8Array([0x61]), new Uint8Array([2])]
 * ```
 */
export function batchBytes(chunks: readonly unknown[]): Uint8Array[] {
  for (let i = 0; i < chunks.length; i++) {
    if (!(chunks[i] instanceof Uint8Array)) return chunks.map(chunkBytes);
  }
  return chunks as Uint8Array[];
}
