/**
 * The specification's "queue-with-sizes": values with their sizes plus a running total.
 *
 * Stored as a ring buffer: parallel arrays of values and sizes whose capacity is a power of two, with a head
 * index and a count, so no object is allocated per chunk, nothing is ever shifted, and the arrays keep their
 * capacity when the queue empties and refills.
 *
 * As long as every size ever queued is exactly 1 (the default count-one strategy) the size array is not used at
 * all: the queue is in "unit mode", where each value's size is implied and [[queueTotalSize]] is an exact
 * count. The first other size fills in the sizes of the queued values and ends unit mode until the queue is
 * reset. Unit mode is what lets the range operations ({@link QueueWithSizes.enqueueUnits},
 * {@link QueueWithSizes.take}, {@link QueueWithSizes.discard}) cost an array copy instead of one step per value.
 * @module
 */

const MIN_CAPACITY = 16;

/** A queue of values with sizes and a running total size ([[queue]] and [[queueTotalSize]]). */
export class QueueWithSizes<T> {
  /** Ring buffer of values; its length (the capacity) is 0 or a power of two. */
  private values: (T | undefined)[] = [];
  /** Sizes, at the same indices as `values`; unused in unit mode. */
  private sizes: number[] = [];
  private head = 0;
  private count = 0;
  /** Every size queued since the last reset was 1; `sizes` is not kept. */
  private unitSizes = true;
  /** [[queueTotalSize]]: the sum of the sizes of the queued values. */
  totalSize = 0;

  /** Number of queued values. */
  get length(): number {
    return this.count;
  }

  /** True while every queued value has size 1 (see the module description). */
  get hasUnitSizes(): boolean {
    return this.unitSizes;
  }

  /** Oldest value, without removing it; the queue must not be empty (PeekQueueValue). */
  peek(): T {
    return this.values[this.head] as T;
  }

  /** The value `index` places after the oldest one (0 is the oldest); `index` must be below `length`. */
  at(index: number): T {
    return this.values[(this.head + index) & (this.values.length - 1)] as T;
  }

  /** The `count` oldest values, oldest first, without removing them; `count` must not exceed `length`. */
  peekMany(count: number): T[] {
    const values = this.values;
    const start = this.head;
    const end = start + count;
    if (end <= values.length) return values.slice(start, end) as T[];
    const out = values.slice(start) as T[];
    for (let i = 0; i < end - values.length; i++) out.push(values[i] as T);
    return out;
  }

  /** Removes and returns the oldest value (DequeueValue). */
  dequeue(): T {
    const head = this.head;
    const value = this.values[head] as T;
    this.values[head] = undefined;
    this.totalSize -= this.unitSizes ? 1 : (this.sizes[head] as number);
    if (this.totalSize < 0) this.totalSize = 0;
    this.count -= 1;
    this.head = this.count === 0 ? 0 : (head + 1) & (this.values.length - 1);
    return value;
  }

  /**
   * Removes and returns the `count` oldest values, oldest first: `count` DequeueValue steps in one range
   * operation. `count` must not exceed `length`.
   */
  take(count: number): T[] {
    const taken = this.peekMany(count);
    this.discard(count);
    return taken;
  }

  /** Removes the `count` oldest values (`count` DequeueValue steps); `count` must not exceed `length`. */
  discard(count: number): void {
    if (count === 0) return;
    const values = this.values;
    const mask = values.length - 1;
    const head = this.head;
    let total = this.totalSize;
    if (this.unitSizes && Number.isSafeInteger(total) && total >= count) {
      total -= count;
    } else {
      const sizes = this.sizes;
      for (let i = 0; i < count; i++) {
        total -= this.unitSizes ? 1 : (sizes[(head + i) & mask] as number);
        if (total < 0) total = 0;
      }
    }
    this.totalSize = total;
    const end = head + count;
    values.fill(undefined, head, Math.min(end, values.length));
    if (end > values.length) values.fill(undefined, 0, end - values.length);
    this.count -= count;
    this.head = this.count === 0 ? 0 : end & mask;
  }

  /** Appends a value with its size; throws a `RangeError` for a negative, NaN or infinite size (EnqueueValueWithSize). */
  enqueue(value: T, size: number): void {
    if (size !== 1) {
      if (!isNonNegativeNumber(size) || size === Infinity) {
        throw new RangeError(`Cannot enqueue chunk: size must be a finite, non-negative number, got ${String(size)}`);
      }
      if (this.unitSizes) this.leaveUnitMode();
    }
    if (this.count === this.values.length) this.grow(this.count + 1);
    const index = (this.head + this.count) & (this.values.length - 1);
    this.values[index] = value;
    if (!this.unitSizes) this.sizes[index] = size;
    this.count += 1;
    this.totalSize += size;
  }

  /** Appends `values[from..to)`, each with size 1: `to - from` EnqueueValueWithSize steps in one range operation. */
  enqueueUnits(values: ArrayLike<T>, from: number, to: number): void {
    const added = to - from;
    if (this.count + added > this.values.length) this.grow(this.count + added);
    const queued = this.values;
    const sizes = this.sizes;
    const mask = queued.length - 1;
    const unitSizes = this.unitSizes;
    let index = this.head + this.count;
    for (let i = from; i < to; i++, index++) {
      queued[index & mask] = values[i];
      if (!unitSizes) sizes[index & mask] = 1;
    }
    this.count += added;
    const total = this.totalSize + added;
    if (Number.isSafeInteger(total)) {
      this.totalSize = total;
    } else {
      for (let i = 0; i < added; i++) this.totalSize += 1;
    }
  }

  /** Empties the queue (ResetQueue). */
  reset(): void {
    this.values = [];
    this.sizes = [];
    this.head = 0;
    this.count = 0;
    this.unitSizes = true;
    this.totalSize = 0;
  }

  private leaveUnitMode(): void {
    this.sizes = new Array<number>(this.values.length).fill(1);
    this.unitSizes = false;
  }

  /** Moves the queued values (and sizes) to the front of arrays with room for `needed` values. */
  private grow(needed: number): void {
    let capacity = Math.max(MIN_CAPACITY, this.values.length);
    while (capacity < needed) capacity *= 2;
    const values = new Array<T | undefined>(capacity);
    const sizes = this.unitSizes ? this.sizes : new Array<number>(capacity);
    const mask = this.values.length - 1;
    for (let i = 0; i < this.count; i++) {
      const from = (this.head + i) & mask;
      values[i] = this.values[from];
      if (!this.unitSizes) sizes[i] = this.sizes[from] as number;
    }
    this.values = values;
    this.sizes = sizes;
    this.head = 0;
  }
}

/** IsNonNegativeNumber: a number that is not NaN and not negative. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}
