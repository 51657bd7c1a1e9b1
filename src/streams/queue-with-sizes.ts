/**
 * The specification's "queue-with-sizes": values with their sizes plus a running total, stored in two
 * parallel arrays with a head index so no object is allocated per chunk.
 * @module
 */

const COMPACT_THRESHOLD = 1024;

/** A queue of values with sizes and a running total size ([[queue]] and [[queueTotalSize]]). */
export class QueueWithSizes<T> {
  private values: (T | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  /** [[queueTotalSize]]: the sum of the sizes of the queued values. */
  totalSize = 0;

  /** Number of queued values. */
  get length(): number {
    return this.values.length - this.head;
  }

  /** Oldest value, without removing it; the queue must not be empty (PeekQueueValue). */
  peek(): T {
    return this.values[this.head] as T;
  }

  /** Removes and returns the oldest value (DequeueValue). */
  dequeue(): T {
    const values = this.values;
    const head = this.head;
    const value = values[head] as T;
    const size = this.sizes[head] as number;
    values[head] = undefined;
    this.totalSize -= size;
    if (this.totalSize < 0) this.totalSize = 0;
    const next = head + 1;
    if (next === values.length) {
      values.length = 0;
      this.sizes.length = 0;
      this.head = 0;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= values.length) {
      this.values = values.slice(next);
      this.sizes = this.sizes.slice(next);
      this.head = 0;
    } else {
      this.head = next;
    }
    return value;
  }

  /** Appends a value with its size; throws a `RangeError` for a negative, NaN or infinite size (EnqueueValueWithSize). */
  enqueue(value: T, size: number): void {
    if (!isNonNegativeNumber(size) || size === Infinity) {
      throw new RangeError(`Cannot enqueue chunk: size must be a finite, non-negative number, got ${String(size)}`);
    }
    this.values.push(value);
    this.sizes.push(size);
    this.totalSize += size;
  }

  /** The `count` oldest values, oldest first, without removing them. */
  peekMany(count: number): T[] {
    return this.values.slice(this.head, this.head + count) as T[];
  }

  /** Empties the queue (ResetQueue). */
  reset(): void {
    this.values = [];
    this.sizes = [];
    this.head = 0;
    this.totalSize = 0;
  }
}

/** IsNonNegativeNumber: a number that is not NaN and not negative. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}
