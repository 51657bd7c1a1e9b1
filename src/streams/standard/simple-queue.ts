/**
 * A FIFO queue backed by an array with head and tail indices: `push` and `shift` are O(1), the array is
 * reused when the queue empties (no reallocation when a queue keeps going between zero and a few items), and
 * it is compacted only once at least half of it is consumed space.
 * @module
 */

const COMPACT_THRESHOLD = 1024;

/**
 * FIFO queue with O(1) amortised `push` and `shift`.
 * @example
 * ```ts
 * const q = new SimpleQueue<number>();
 * q.push(1); q.push(2);
 * q.shift(); // 1
 * ```
 */
export class SimpleQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private tail = 0;

  /** Number of queued items. */
  get length(): number {
    return this.tail - this.head;
  }

  /** Appends an item. */
  push(item: T): void {
    this.items[this.tail++] = item;
  }

  /** Removes and returns the oldest item; the queue must not be empty. */
  shift(): T {
    const items = this.items;
    const head = this.head;
    const item = items[head] as T;
    items[head] = undefined;
    const next = head + 1;
    if (next === this.tail) {
      this.head = 0;
      this.tail = 0;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= this.tail) {
      items.copyWithin(0, next, this.tail);
      items.fill(undefined, this.tail - next, this.tail);
      this.tail -= next;
      this.head = 0;
    } else {
      this.head = next;
    }
    return item;
  }

  /** Returns the oldest item without removing it; the queue must not be empty. */
  peek(): T {
    return this.items[this.head] as T;
  }

  /** Calls `fn` on every item, oldest first. */
  /** Removes the first occurrence of `item` (the queue keeps the others' order); returns whether it was there. */
  remove(item: T): boolean {
    const items = this.items;
    for (let i = this.head; i < this.tail; i++) {
      if (items[i] !== item) continue;
      items.copyWithin(i, i + 1, this.tail);
      this.tail -= 1;
      items[this.tail] = undefined;
      if (this.head === this.tail) {
        this.head = 0;
        this.tail = 0;
      }
      return true;
    }
    return false;
  }

  forEach(fn: (item: T) => void): void {
    const items = this.items;
    for (let i = this.head; i < this.tail; i++) fn(items[i] as T);
  }
}
