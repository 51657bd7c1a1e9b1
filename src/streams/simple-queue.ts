/**
 * A FIFO queue backed by an array and a head index: `shift` is O(1) and never moves the remaining items
 * until at least half of the array has been consumed.
 * @module
 */

const COMPACT_THRESHOLD = 1024;

/**
 * FIFO queue with O(1) amortised `push` and `shift`.
 * @example
 * const q = new SimpleQueue<number>();
 * q.push(1); q.push(2);
 * q.shift(); // 1
 */
export class SimpleQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** Number of queued items. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Appends an item. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Removes and returns the oldest item; the queue must not be empty. */
  shift(): T {
    const items = this.items;
    const head = this.head;
    const item = items[head] as T;
    items[head] = undefined;
    const next = head + 1;
    if (next === items.length) {
      items.length = 0;
      this.head = 0;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= items.length) {
      this.items = items.slice(next);
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

  /** Returns the item at position `index` from the head; `index` must be in range. */
  at(index: number): T {
    return this.items[this.head + index] as T;
  }

  /** Removes every item. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }

  /** Calls `fn` on every item, oldest first. */
  forEach(fn: (item: T) => void): void {
    const items = this.items;
    for (let i = this.head; i < items.length; i++) fn(items[i] as T);
  }
}
