/**
 * The specification's "queue-with-sizes": values with their sizes plus a running total.
 *
 * Stored as a ring buffer: parallel arrays of values and sizes with a head index and a count, so no object is
 * allocated per chunk, nothing is ever shifted, and the arrays keep their capacity when the queue empties and
 * refills.
 *
 * As long as every size ever queued is exactly 1 (the default count-one strategy) the size array is not used at
 * all: the queue is in "unit mode", where each value's size is implied and [[queueTotalSize]] is an exact
 * count. The first other size fills in the sizes of the queued values and ends unit mode until the queue is
 * reset. Unit mode is what lets the range operations ({@link QueueWithSizes.enqueueUnits},
 * {@link QueueWithSizes.take}, {@link QueueWithSizes.discard}) cost an array copy, or nothing, instead of one
 * step per value.
 *
 * Two range operations move arrays instead of copying them. {@link QueueWithSizes.enqueueUnits} with an array
 * the caller hands over makes that array the storage of an empty queue (and
 * {@link QueueWithSizes.enqueueUnitsFrom} of many values into a queue holding few copies them into new storage
 * exactly full of the queued values and those). {@link QueueWithSizes.peekMany} of every value of a queue whose
 * storage holds exactly those values, in order, hands the storage itself out; the storage is then "lent": the
 * queue never reads or writes it again (the next enqueue moves the queue to new storage, and the lent values may
 * only be discarded, which is all a writable stream does with the chunks of the write in flight).
 * @module
 */

const MIN_CAPACITY = 16;

/** The most values {@link QueueWithSizes.enqueueUnitsFrom} gives storage of their own (128 KB of 8-byte slots). */
const MAX_EXACT_STORAGE = 16_000;

/**
 * What an unused slot of the storage holds. A small integer, not `undefined`: it keeps no value alive either, and
 * it lets the storage stay an array of small integers (or of doubles) for as long as only numbers are queued, the
 * representation in which engines store, copy and read numbers fastest; `undefined` would make it an array of
 * tagged values from the start.
 */
const EMPTY = 0;

/** A queue of values with sizes and a running total size ([[queue]] and [[queueTotalSize]]). */
export class QueueWithSizes<T> {
  /** Ring buffer of values: `capacity` slots, the queued ones from `head` on, wrapping around. */
  private values: (T | typeof EMPTY)[] = [];
  /** Sizes, at the same indices as `values`; unused in unit mode. */
  private sizes: number[] = [];
  private capacity = 0;
  private head = 0;
  private count = 0;
  /** Every size queued since the last reset was 1; `sizes` is not kept. */
  private unitSizes = true;
  /**
   * `values` was handed out by `peekMany` and belongs to its receiver. Like `unitSizes`, compared with `true` or
   * `false` on the per-chunk paths: one comparison, where a truthiness test of a field is a dozen instructions
   * unless the engine knows it holds a boolean.
   */
  private lent = false;
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
    let slot = this.head + index;
    if (slot >= this.capacity) slot -= this.capacity;
    return this.values[slot] as T;
  }

  /**
   * The `count` oldest values, oldest first, without removing them; `count` must not exceed `length`. The
   * returned array belongs to the caller; when it is the queue's storage (see the module description) the
   * queue only discards those values afterwards.
   */
  peekMany(count: number): T[] {
    const values = this.values;
    const start = this.head;
    if (start === 0 && count > 0 && count === this.count && count === this.capacity) {
      this.lent = true;
      return values as T[];
    }
    const end = start + count;
    if (end <= this.capacity) return values.slice(start, end) as T[];
    const out = values.slice(start, this.capacity) as T[];
    for (let i = 0; i < end - this.capacity; i++) out.push(values[i] as T);
    return out;
  }

  /** Removes and returns the oldest value (DequeueValue). */
  dequeue(): T {
    const head = this.head;
    const value = this.values[head] as T;
    this.values[head] = EMPTY;
    this.totalSize -= this.unitSizes ? 1 : (this.sizes[head] as number);
    if (this.totalSize < 0) this.totalSize = 0;
    this.count -= 1;
    this.head = this.count === 0 || head + 1 === this.capacity ? 0 : head + 1;
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
    const capacity = this.capacity;
    const head = this.head;
    let total = this.totalSize;
    if (this.unitSizes && Number.isSafeInteger(total) && total >= count) {
      total -= count;
    } else {
      const sizes = this.sizes;
      for (let i = 0, slot = head; i < count; i++, slot = slot + 1 === capacity ? 0 : slot + 1) {
        total -= this.unitSizes ? 1 : (sizes[slot] as number);
        if (total < 0) total = 0;
      }
    }
    this.totalSize = total;
    this.count -= count;
    let end = head + count;
    if (end >= capacity) end -= capacity;
    if (this.lent) {
      if (this.count === 0) this.dropStorage();
    } else {
      if (end > head) {
        clearSlots(this.values, head, end);
      } else {
        clearSlots(this.values, head, capacity);
        clearSlots(this.values, 0, end);
      }
    }
    this.head = this.count === 0 ? 0 : end;
  }

  /**
   * Appends a value with its size; throws a `RangeError` for a negative, NaN or infinite size (EnqueueValueWithSize).
   */
  enqueue(value: T, size: number): void {
    if (size !== 1) {
      if (!isNonNegativeNumber(size) || size === Infinity) {
        throw new RangeError(`Cannot enqueue chunk: size must be a finite, non-negative number, got ${String(size)}`);
      }
      if (this.unitSizes) this.leaveUnitMode();
    }
    if (this.count === this.capacity || this.lent === true) this.grow(this.count + 1);
    let slot = this.head + this.count;
    if (slot >= this.capacity) slot -= this.capacity;
    this.values[slot] = value;
    if (this.unitSizes === false) this.sizes[slot] = size;
    this.count += 1;
    this.totalSize += size;
  }

  /**
   * Appends `value` with size 1 to a queue in unit mode (see {@link hasUnitSizes}): EnqueueValueWithSize with a
   * size known to be valid, so nothing is checked and no size is kept. The caller guarantees unit mode, as a
   * count-one strategy does.
   */
  enqueueUnit(value: T): void {
    if (this.count === this.capacity || this.lent === true) this.grow(this.count + 1);
    let slot = this.head + this.count;
    if (slot >= this.capacity) slot -= this.capacity;
    this.values[slot] = value;
    this.count += 1;
    this.totalSize += 1;
  }

  /**
   * Appends every value of `values`, each with size 1: `values.length` EnqueueValueWithSize steps in one range
   * operation. The queue takes the array over (the caller must not use it afterwards): an empty queue in unit
   * mode makes it its storage instead of copying it.
   */
  enqueueUnits(values: T[]): void {
    const added = values.length;
    const total = this.totalSize + added;
    if (Number.isSafeInteger(total)) {
      this.totalSize = total;
    } else {
      for (let i = 0; i < added; i++) this.totalSize += 1;
    }
    if (this.count === 0 && this.unitSizes && added > 0) {
      this.values = values;
      this.capacity = added;
      this.head = 0;
      this.count = added;
      this.lent = false;
      return;
    }
    if (this.count + added > this.capacity || this.lent) this.grow(this.count + added);
    const queued = this.values;
    const sizes = this.sizes;
    const unitSizes = this.unitSizes;
    let slot = this.head + this.count;
    if (slot >= this.capacity) slot -= this.capacity;
    for (let i = 0; i < added; i++) {
      queued[slot] = values[i] as T;
      if (!unitSizes) sizes[slot] = 1;
      slot = slot + 1 === this.capacity ? 0 : slot + 1;
    }
    this.count += added;
  }

  /**
   * Appends `values[start..end)` with size 1 each to a queue in unit mode (see {@link hasUnitSizes}): that many
   * {@link enqueueUnit} steps in one range operation, copying the values (the caller keeps `values`).
   */
  enqueueUnitsFrom(values: ArrayLike<T>, start: number, end: number): void {
    const added = end - start;
    if (added <= 0) return;
    // A range much larger than what is queued (a transformer enqueueing a chunk's worth of values at once) gets
    // storage of its own, exactly full: a range operation that then takes every value is handed that storage rather
    // than a copy (see peekMany), and the copy in here costs no more than one into the ring would. Up to a size that
    // engines allocate among young objects: larger arrays are allocated apart, page by page, at several times the
    // cost per value (measured in Node 24), where the reused ring is cheaper.
    if (this.unitSizes === true && added >= MIN_CAPACITY && added <= MAX_EXACT_STORAGE && this.count * 4 <= added) {
      this.values = this.exactStorageWith(values, start, end);
      this.count += added;
      this.capacity = this.count;
      this.head = 0;
      this.lent = false;
      this.totalSize += added;
      return;
    }
    if (this.count + added > this.capacity || this.lent === true) this.grow(this.count + added);
    const queued = this.values;
    const capacity = this.capacity;
    let slot = this.head + this.count;
    if (slot >= capacity) slot -= capacity;
    // The counts first: no field is touched after the copy loop. V8 may compile that loop while a call runs (on-stack
    // replacement), before code after it has run; a field access there, lacking type feedback, would then deoptimize
    // the compiled loop at the end of every call that enters it (seen in Node 24: hundreds of times per process).
    this.count += added;
    this.totalSize += added;
    // Up to the end of the storage, then from its start: two plain copies, no wrap test per value.
    const straight = Math.min(end, start + capacity - slot);
    copyInto(queued, slot - start, values, start, straight);
    copyInto(queued, -straight, values, straight, end);
  }

  /**
   * New storage holding exactly the queued values followed by `values[start..end)`. Lent storage is not read: the
   * slots of its values, which are only ever discarded, are left empty.
   */
  private exactStorageWith(values: ArrayLike<T>, start: number, end: number): (T | typeof EMPTY)[] {
    const count = this.count;
    const storage = new Array<T | typeof EMPTY>(count + end - start);
    const queued = this.values;
    const lent = this.lent;
    for (let i = 0, slot = this.head; i < count; i++, slot = slot + 1 === this.capacity ? 0 : slot + 1)
      storage[i] = lent === true ? EMPTY : queued[slot]!;
    copyInto(storage, count - start, values, start, end);
    return storage;
  }

  /** Empties the queue (ResetQueue). */
  reset(): void {
    this.dropStorage();
    this.unitSizes = true;
    this.totalSize = 0;
  }

  private dropStorage(): void {
    this.values = [];
    this.sizes = [];
    this.capacity = 0;
    this.head = 0;
    this.count = 0;
    this.lent = false;
  }

  private leaveUnitMode(): void {
    this.sizes = packedArray(this.capacity, 1);
    this.unitSizes = false;
  }

  /**
   * Gives the queue storage with room for `needed` values. Storage is doubled by appending it to itself
   * (an array copy, which keeps it packed): slot `i` of the doubled storage holds what slot `i % capacity` held,
   * so the queued values, wrapped or not, lie in order from `head` on, and every other slot is then cleared.
   * Lent storage is not read: the new storage starts empty, and since lent values are only ever discarded,
   * their slots are left empty (their sizes, which stay the queue's, are kept).
   */
  private grow(needed: number): void {
    if (this.capacity === 0 || this.lent) {
      this.replaceStorage(needed);
      return;
    }
    let values = this.values;
    let sizes = this.sizes;
    let capacity = this.capacity;
    do {
      values = values.concat(values);
      if (!this.unitSizes) sizes = sizes.concat(sizes);
      capacity *= 2;
    } while (capacity < needed);
    const end = this.head + this.count;
    values.fill(EMPTY, 0, this.head);
    values.fill(EMPTY, end, capacity);
    this.values = values;
    this.sizes = sizes;
    this.capacity = capacity;
  }

  /** Moves to new storage of at least `needed` slots, with the queued sizes (not values) at its front. */
  private replaceStorage(needed: number): void {
    let capacity = Math.max(MIN_CAPACITY, this.capacity);
    while (capacity < needed) capacity *= 2;
    const sizes = this.unitSizes ? this.sizes : packedArray(capacity, 1);
    for (
      let i = 0, slot = this.head;
      !this.unitSizes && i < this.count;
      i++, slot = slot + 1 === this.capacity ? 0 : slot + 1
    ) {
      sizes[i] = this.sizes[slot] as number;
    }
    this.values = packedArray<T | typeof EMPTY>(capacity, EMPTY);
    this.sizes = sizes;
    this.capacity = capacity;
    this.head = 0;
    this.lent = false;
  }
}

/** Copies `values[from..to)` to `target[from + shift..to + shift)`, one plain loop. */
function copyInto<T>(target: unknown[], shift: number, values: ArrayLike<T>, from: number, to: number): void {
  for (let i = from; i < to; i++) target[i + shift] = values[i];
}

/**
 * Empties `values[from..to)` so the queue keeps no reference to values it no longer holds (a loop: faster than `fill`
 * here).
 */
function clearSlots(values: unknown[], from: number, to: number): void {
  for (let i = from; i < to; i++) values[i] = EMPTY;
}

/**
 * An array of `length` copies of `value`, built by appending so that it has no holes: engines then keep it (and
 * the slices handed to sinks) in their packed representation, which reads faster than a holey one.
 */
function packedArray<V>(length: number, value: V): V[] {
  const array: V[] = [];
  for (let i = 0; i < length; i++) array.push(value);
  return array;
}

/** IsNonNegativeNumber: a number that is not NaN and not negative. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}
