/**
 * A free list of equal-size buffers for part uploads. A buffer is handed back only after the upload that
 * read it has settled, so no buffer is ever rewritten while a store may still read it; in steady state a
 * split allocates no new buffers at all, whatever the input's size.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const buffers = new ChunkBuffers(10 * 1024 * 1024, 3);
 * const buffer = buffers.take();
 * const used = buffer.length; // the bytes filled
 * await store.put("primes/part-0", buffer.subarray(0, used));
 * buffers.give(buffer);
 * ```
 */
export class ChunkBuffers {
  /** The size of every buffer, in bytes. */
  readonly size: number;
  readonly #spares: Uint8Array[] = [];
  readonly #maxSpares: number;

  /** Hands out buffers of `size` bytes and keeps at most `maxSpares` returned ones for reuse. */
  constructor(size: number, maxSpares: number) {
    this.size = size;
    this.#maxSpares = maxSpares;
  }

  /** A buffer of {@linkcode size} bytes: a returned one when there is one, else a new one. */
  take(): Uint8Array {
    return this.#spares.pop() ?? new Uint8Array(this.size);
  }

  /** Returns a buffer taken from this list, once nothing reads it any more. */
  give(buffer: Uint8Array): void {
    if (buffer.length === this.size && this.#spares.length < this.#maxSpares) this.#spares.push(buffer);
  }
}
