/**
 * Most bytes of spare buffers kept between splits (all sizes together): three buffers of the default 10 MiB,
 * what one split with the default two uploads in flight holds.
 */
export const MAX_SPARE_BYTES = 32 * 1024 * 1024;

/** Spare buffers by size, shared by every split of this isolate (or process). */
const spares = new Map<number, Uint8Array[]>();
let spareBytes = 0;

/**
 * A free list of equal-size buffers for part uploads. A buffer is handed back only after the upload that read it
 * has settled, so no buffer is ever rewritten while a store may still read it. Returned buffers are kept for the
 * next split too, up to {@linkcode MAX_SPARE_BYTES} in all: a worker's isolate serves upload after upload, and
 * memory met for the first time costs a page fault per 4 KiB page (measured at several ms of CPU per MiB in a
 * virtual machine), more than parsing it. So in steady state a split allocates no new buffers at all, whatever
 * the input's size.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const buffers = new ChunkBuffers(10 * 1024 * 1024);
 * const buffer = buffers.take();
 * const used = buffer.length; // the bytes filled
 * await store.put("primes/part-0", buffer.subarray(0, used));
 * buffers.give(buffer);
 * ```
 */
export class ChunkBuffers {
  /** The size of every buffer, in bytes. */
  readonly size: number;

  /** Hands out buffers of `size` bytes, sharing returned ones with every other list of that size. */
  constructor(size: number) {
    this.size = size;
  }

  /** A buffer of {@linkcode size} bytes: a returned one when there is one, else a new one. */
  take(): Uint8Array {
    const shelf = spares.get(this.size);
    const buffer = shelf?.pop();
    if (!buffer) return new Uint8Array(this.size);
    if (shelf!.length === 0) spares.delete(this.size);
    spareBytes -= buffer.length;
    return buffer;
  }

  /** Returns a buffer taken from this list, once nothing reads it any more. */
  give(buffer: Uint8Array): void {
    if (buffer.length !== this.size || spareBytes + buffer.length > MAX_SPARE_BYTES) return;
    spareBytes += buffer.length;
    const shelf = spares.get(this.size);
    if (shelf) shelf.push(buffer);
    else spares.set(this.size, [buffer]);
  }
}
