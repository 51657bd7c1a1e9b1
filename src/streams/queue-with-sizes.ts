/**
 * The specification's "queue-with-sizes": values with their sizes plus a running total, stored in two
 * parallel arrays with head and tail indices, so no object is allocated per chunk and the arrays are reused
 * when the queue empties.
 *
 * While every queued size is exactly 1 (the default count-one strategy) the size array is not written at all:
 * the queue is in "unit mode", where the size of each value is implied. The first other size fills the sizes
 * of the values already queued with 1 and leaves unit mode until the queue empties. Unit mode is what makes
 * the range operations ({@link QueueWithSizes.enqueueUnits}, {@link QueueWithSizes.take},
 * {@link QueueWithSizes.discard}) cost one array copy instead of one operation per value.
 * @module
 */

const COMPACT_THRESHOLD = 1024;

/** A queue of values with sizes and a running total size ([[queue]] and [[queueTotalSize]]). */
export class QueueWithSizes<T> {
  private values: (T | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private tail = 0;
  /** Every queued size is 1, and `sizes` is not kept up to date. */
  private unitSizes = true;
  /** [[queueTotalSize]]: the sum of the sizes of the queued values. */
  totalSize = 0;

  /** Number of queued values. */
  get length(): number {
    return this.tail - this.head;
  }

  /** True while every queued value has size 1. */
  get hasUnitSizes(): boolean {
    return this.unitSizes;
  }

  /** Oldest value, without removing it; the queue must not be empty (PeekQueueValue). */
  peek(): T {
    return this.values[this.head] as T;
  }

  /** The value `index` places after the oldest one (0 is the oldest); `index` must be below `length`. */
  at(index: number): T {
    return this.values[this.head + index] as T;
  }

  /** The `count` oldest values, oldest first, without removing them. */
  peekMany(count: number): T[] {
    return this.values.slice(this.head, this.head + count) as T[];
  }

  /** Removes and returns the oldest value (DequeueValue). */
  dequeue(): T {
    const head = this.head;
    const value = this.values[head] as T;
    this.values[head] = undefined;
    this.totalSize -= this.unitSizes ? 1 : (this.sizes[head] as number);
    if (this.totalSize < 0) this.totalSize = 0;
    this.advanceHead(head + 1);
    return value;
  }

  /**
   * Removes and returns the `count` oldest values, oldest first: `count` DequeueValue steps in one range
   * operation. `count` must not exceed `length`.
   */
  take(count: number): T[] {
    const taken = this.values.slice(this.head, this.head + count) as T[];
    this.discard(count);
    return taken;
  }

  /** Removes the `count` oldest values (`count` DequeueValue steps); `count` must not exceed `length`. */
  discard(count: number): void {
    if (count === 0) return;
    const head = this.head;
    const next = head + count;
    let total = this.totalSize;
    if (this.unitSizes && Number.isSafeInteger(total) && total >= count) {
      total -= count;
    } else {
      const sizes = this.sizes;
      for (let i = head; i < next; i++) {
        total -= this.unitSizes ? 1 : (sizes[i] as number);
        if (total < 0) total = 0;
      }
    }
    this.totalSize = total;
    this.values.fill(undefined, head, next);
    this.advanceHead(next);
  }

  /** Appends a value with its size; throws a `RangeError` for a negative, NaN or infinite size (EnqueueValueWithSize). */
  enqueue(value: T, size: number): void {
    if (size !== 1) {
      if (!isNonNegativeNumber(size) || size === Infinity) {
        throw new RangeError(`Cannot enqueue chunk: size must be a finite, non-negative number, got ${String(size)}`);
      }
      if (this.unitSizes) this.leaveUnitMode();
      this.sizes[this.tail] = size;
    } else if (!this.unitSizes) {
      this.sizes[this.tail] = 1;
    }
    this.values[this.tail] = value;
    this.tail += 1;
    this.totalSize += size;
  }

  /** Appends `values[from..to)`, each with size 1: `to - from` EnqueueValueWithSize steps in one range operation. */
  enqueueUnits(values: ArrayLike<T>, from: number, to: number): void {
    const queued = this.values;
    const sizes = this.sizes;
    let tail = this.tail;
    if (this.unitSizes) {
      for (let i = from; i < to; i++) queued[tail++] = values[i];
    } else {
      for (let i = from; i < to; i++) {
        sizes[tail] = 1;
        queued[tail++] = values[i];
      }
    }
    this.tail = tail;
    const total = this.totalSize + (to - from);
    if (Number.isSafeInteger(total)) {
      this.totalSize = total;
    } else {
      for (let i = from; i < to; i++) this.totalSize += 1;
    }
  }

  /** Empties the queue (ResetQueue). */
  reset(): void {
    this.values = [];
    this.sizes = [];
    this.head = 0;
    this.tail = 0;
    this.unitSizes = true;
    this.totalSize = 0;
  }

  private leaveUnitMode(): void {
    this.sizes.fill(1, this.head, this.tail);
    this.unitSizes = false;
  }

  /**
   * Makes `next` the new head once the values before it have been cleared: rewinds an emptied queue, compacts
   * one that is mostly consumed space.
   */
  private advanceHead(next: number): void {
    const tail = this.tail;
    if (next === tail) {
      this.head = 0;
      this.tail = 0;
      this.unitSizes = true;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= tail) {
      const values = this.values;
      values.copyWithin(0, next, tail);
      values.fill(undefined, tail - next, tail);
      if (!this.unitSizes) this.sizes.copyWithin(0, next, tail);
      this.tail = tail - next;
      this.head = 0;
    } else {
      this.head = next;
    }
  }
}

/** IsNonNegativeNumber: a number that is not NaN and not negative. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}
