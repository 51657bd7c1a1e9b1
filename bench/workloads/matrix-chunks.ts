/**
 * The chunks of scenario 10's shape matrix (`matrix-shapes.ts`) and how their arrival is tallied, so that every
 * run of every shape can be checked and compared across implementations.
 *
 * Value chunks are the numbers 0 … n−1; a tally counts them and adds them up. Byte chunks carry position-coded
 * content (the byte at position p of the whole stream is p mod 256); a tally counts the bytes and adds up how far
 * the first and last byte of every piece read are from what their position says, which stays 0 whatever sizes a
 * BYOB read cuts the bytes into, and becomes positive when a chunk is lost, repeated or out of order.
 *
 * This module imports nothing, so it loads in Node, Bun, Deno and workerd alike.
 *
 * @module
 */

/** What a shape saw arrive: value chunks (count, sum) or bytes (bytes, boundary mismatches). */
export interface Tally {
  /** Value chunks received, or bytes received. */
  count: number;
  /** Sum of the value chunks received, or of the boundary bytes' mismatches (0 when every byte is in place). */
  sum: number;
}

/** A new, empty tally. */
export function emptyTally(): Tally {
  return { count: 0, sum: 0 };
}

/** Adds one value chunk to `tally`. */
export function addValue(tally: Tally, value: number): void {
  tally.count += 1;
  tally.sum += value;
}

/** Adds `bytes`, the next piece of a byte stream, to `tally` (whose count is the position it starts at). */
export function addBytes(tally: Tally, bytes: Uint8Array): void {
  const length = bytes.byteLength;
  if (length === 0) return;
  const start = tally.count;
  tally.sum += Math.abs(bytes[0]! - (start & 255)) + Math.abs(bytes[length - 1]! - ((start + length - 1) & 255));
  tally.count = start + length;
}

/** The tally of the value chunks 0 … `count` − 1, each arrived once. */
export function valueTally(count: number): Tally {
  return { count, sum: (count * (count - 1)) / 2 };
}

/** The tally of `bytes` position-coded bytes arrived in order. */
export function byteTally(bytes: number): Tally {
  return { count: bytes, sum: 0 };
}

/** Bytes 0, 1, … 255, 0, 1, … long enough to copy any chunk of up to 64 KiB from any position mod 256. */
const PATTERN = Uint8Array.from({ length: 256 + 65_536 }, (_, index) => index & 255);

/** Writes the position-coded bytes of positions `position` … into `view`. */
export function fillBytes(view: Uint8Array, position: number): void {
  const from = position & 255;
  view.set(PATTERN.subarray(from, from + view.byteLength));
}

/** A fresh chunk of `size` position-coded bytes starting at `position` (for byte streams, whose enqueue transfers). */
export function freshBytes(size: number, position: number): Uint8Array<ArrayBuffer> {
  const chunk = new Uint8Array(size);
  fillBytes(chunk, position);
  return chunk;
}

/**
 * The chunks of a value stream of `size`-byte `Uint8Array`s: chunk i is `pool[i % pool.length]`, built once,
 * since the content repeats every 256 ÷ gcd(size, 256) chunks.
 */
export function bytePool(size: number): Uint8Array[] {
  let period = 256;
  while (period > 1 && (size * (period / 2)) % 256 === 0) period /= 2;
  return Array.from({ length: period }, (_, index) => freshBytes(size, index * size));
}
