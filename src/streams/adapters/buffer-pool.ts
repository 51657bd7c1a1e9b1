/**
 * A pool of equally sized byte buffers that consumers give back explicitly, for byte sources that would
 * otherwise allocate a fresh buffer per chunk.
 * @module
 */

interface TransferableArrayBuffer extends ArrayBuffer {
  transfer?: () => ArrayBuffer;
  readonly resizable?: boolean;
}

/** Options of {@link BufferPool}. */
export interface BufferPoolOptions {
  /** Size in bytes of every buffer the pool hands out; a positive integer. */
  bufferSize: number;
  /** Most free buffers kept for reuse (default 8); buffers released beyond that are left to the garbage collector. */
  maxFree?: number;
}

/** Default {@link BufferPoolOptions.maxFree}. */
export const DEFAULT_MAX_FREE_BUFFERS = 8;

/**
 * Equally sized buffers for reuse. A buffer returns to the pool only when its holder calls
 * {@link BufferPool.release}, and release takes the memory away from the holder: it detaches the buffer, so the
 * released chunk and every other view of that buffer become empty (`byteLength` 0). A consumer that keeps a
 * chunk therefore never sees its bytes change, and one that keeps using a chunk after releasing it sees an
 * empty view rather than someone else's data.
 *
 * @example
 * ```ts
 * declare const source: SizedByteSource;
 * const pool = new BufferPool({ bufferSize: 65536 });
 * let total = 0;
 * for await (const chunk of sizedByteStream(source, { pool })) {
 *   total += chunk.byteLength;
 *   pool.release(chunk); // only once nothing refers to `chunk` any more
 * }
 * ```
 */
export class BufferPool {
  /** Size in bytes of every buffer this pool hands out. */
  readonly bufferSize: number;
  /** Most free buffers kept for reuse. */
  readonly maxFree: number;
  /** Released buffers waiting for reuse. */
  private readonly free: ArrayBuffer[] = [];

  /** Creates an empty pool; throws a `RangeError` for sizes that are not integers in range. */
  constructor(options: BufferPoolOptions) {
    const { bufferSize, maxFree = DEFAULT_MAX_FREE_BUFFERS } = options;
    if (!Number.isSafeInteger(bufferSize) || bufferSize <= 0) {
      throw new RangeError(
        `Cannot create a BufferPool: bufferSize must be a positive integer, current value is ${bufferSize}`,
      );
    }
    if (!Number.isSafeInteger(maxFree) || maxFree < 0) {
      throw new RangeError(
        `Cannot create a BufferPool: maxFree must be a non-negative integer, current value is ${maxFree}`,
      );
    }
    this.bufferSize = bufferSize;
    this.maxFree = maxFree;
  }

  /** Number of released buffers waiting for reuse. */
  get freeCount(): number {
    return this.free.length;
  }

  /**
   * A view over a whole buffer of {@link BufferPool.bufferSize} bytes: a released one when available, else a
   * new (zeroed) one. A reused buffer still holds the bytes of its previous use.
   */
  acquire(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.free.pop() ?? new ArrayBuffer(this.bufferSize));
  }

  /**
   * Gives the buffer under `chunk` back for reuse, detaching it: afterwards `chunk` and every other view of the
   * same buffer are empty. Call it only when nothing will read those bytes again. Returns `false`, without
   * touching anything, when the buffer cannot be one of this pool's: its size differs from
   * {@link BufferPool.bufferSize}, it is resizable, or it is already detached (released twice, or transferred
   * elsewhere).
   */
  release(chunk: ArrayBufferView): boolean {
    const buffer = chunk.buffer as TransferableArrayBuffer;
    if (!(buffer instanceof ArrayBuffer) || buffer.resizable === true || buffer.byteLength !== this.bufferSize) {
      return false;
    }
    const taken = detach(buffer);
    if (this.free.length < this.maxFree) this.free.push(taken);
    return true;
  }
}

/** Moves the memory of `buffer` into a new ArrayBuffer, leaving `buffer` detached. */
function detach(buffer: TransferableArrayBuffer): ArrayBuffer {
  if (buffer.transfer !== undefined) return buffer.transfer();
  return structuredClone(buffer, { transfer: [buffer] });
}
