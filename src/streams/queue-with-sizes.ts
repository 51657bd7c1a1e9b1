/**
 * The specification's "queue-with-sizes": values with their sizes plus a running total, stored in two
 * parallel arrays with head and tail indices, so no object is allocated per chunk and the arrays are reused
 * when the queue empties.
 * @module
 */

const COMPACT_THRESHOLD = 1024;

/** A queue of values with sizes and a running total size ([[queue]] and [[queueTotalSize]]). */
export class QueueWithSizes<T> {
  private values: (T | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private tail = 0;
  /** [[queueTotalSize]]: the sum of the sizes of the queued values. */
  totalSize = 0;

  /** Number of queued values. */
  get length(): number {
    return this.tail - this.head;
  }

  /** Oldest value, without removing it; the queue must not be empty (PeekQueueValue). */
  peek(): T {
    return this.values[this.head] as T;
  }

  /** The `count` oldest values, oldest first, without removing them. */
  peekMany(count: number): T[] {
    return this.values.slice(this.head, this.head + count) as T[];
  }

  /** Removes and returns the oldest value (DequeueValue). */
  dequeue(): T {
    const values = this.values;
    const head = this.head;
    const value = values[head] as T;
    values[head] = undefined;
    this.totalSize -= this.sizes[head] as number;
    if (this.totalSize < 0) this.totalSize = 0;
    const next = head + 1;
    if (next === this.tail) {
      this.head = 0;
      this.tail = 0;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= this.tail) {
      values.copyWithin(0, next, this.tail);
      values.fill(undefined, this.tail - next, this.tail);
      this.sizes.copyWithin(0, next, this.tail);
      this.tail -= next;
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
    this.values[this.tail] = value;
    this.sizes[this.tail] = size;
    this.tail += 1;
    this.totalSize += size;
  }

  /** Empties the queue (ResetQueue). */
  reset(): void {
    this.values = [];
    this.sizes = [];
    this.head = 0;
    this.tail = 0;
    this.totalSize = 0;
  }
}

/** IsNonNegativeNumber: a number that is not NaN and not negative. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}
