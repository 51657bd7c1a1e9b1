import { describe, expect, test } from "vitest";
import { QueueWithSizes } from "../../../src/streams/standard/queue-with-sizes.ts";

describe("QueueWithSizes", () => {
  test("tracks the total size and keeps order across compactions", () => {
    const queue = new QueueWithSizes<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 150; i++) queue.enqueue(next++, 2);
      for (let i = 0; i < 100; i++) out.push(queue.dequeue());
      expect(queue.totalSize).toBe(queue.length * 2);
    }
    expect(queue.peekMany(3)).toEqual([out.length, out.length + 1, out.length + 2]);
    while (queue.length > 0) out.push(queue.dequeue());
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(queue.totalSize).toBe(0);
  });

  test("rejects sizes that are negative, NaN or infinite", () => {
    const queue = new QueueWithSizes<string>();
    expect(() => queue.enqueue("a", -1)).toThrow(RangeError);
    expect(() => queue.enqueue("a", Number.NaN)).toThrow(RangeError);
    expect(() => queue.enqueue("a", Infinity)).toThrow(RangeError);
    expect(queue.length).toBe(0);
  });

  test("never lets rounding make the total negative", () => {
    const queue = new QueueWithSizes<string>();
    queue.enqueue("a", 0.1);
    queue.enqueue("b", 0.2);
    queue.dequeue();
    queue.dequeue();
    expect(queue.totalSize).toBeGreaterThanOrEqual(0);
  });
});

describe("QueueWithSizes range operations", () => {
  test("keeps order and totals across wrap-around, growth and mixed single and range operations", () => {
    const queue = new QueueWithSizes<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 7; i++) queue.enqueue(next++, 1);
      queue.enqueueUnits(Array.from({ length: 5 + round }, () => next++));
      out.push(queue.dequeue());
      out.push(...queue.take(Math.min(queue.length, 9)));
      expect(queue.totalSize).toBe(queue.length);
      expect(queue.hasUnitSizes).toBe(true);
    }
    out.push(...queue.take(queue.length));
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(queue.totalSize).toBe(0);
  });

  test("appends a range of another array across wrap-around, growth and lent storage, leaving it as it was", () => {
    const queue = new QueueWithSizes<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 60; round++) {
      const source = Float64Array.from({ length: 3 + round }, () => next++);
      const copy = source.slice();
      if (queue.length === 0) {
        // Moves the head on, so that the storage wraps around sooner.
        queue.enqueueUnit(-1);
        queue.dequeue();
      }
      queue.enqueueUnitsFrom(source, 0, 2);
      queue.enqueueUnitsFrom(source, 2, 2);
      queue.enqueueUnitsFrom(source, 2, source.length);
      expect(source).toEqual(copy);
      expect(queue.totalSize).toBe(queue.length);
      const taken = round % 3 === 0 ? queue.peekMany(queue.length) : queue.take(Math.min(queue.length, 11));
      if (round % 3 === 0) queue.discard(taken.length);
      out.push(...taken);
    }
    out.push(...queue.take(queue.length));
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(queue.totalSize).toBe(0);
    expect(queue.hasUnitSizes).toBe(true);
  });

  test("appending a range after lending the storage leaves the lent array alone", () => {
    const queue = new QueueWithSizes<number>();
    queue.enqueueUnits([1, 2, 3]);
    const lent = queue.peekMany(3);
    queue.discard(1);
    queue.enqueueUnitsFrom([4, 5, 6, 7], 1, 2);
    expect(lent).toEqual([1, 2, 3]);
    queue.discard(2);
    expect(queue.take(queue.length)).toEqual([5]);
    expect(queue.totalSize).toBe(0);
  });

  test("a large range into a queue holding few values gets storage exactly full, handed out whole", () => {
    const queue = new QueueWithSizes<number>();
    queue.enqueueUnit(-1);
    const source = Float64Array.from({ length: 40 }, (_, i) => i);
    queue.enqueueUnitsFrom(source, 0, 40);
    const all = queue.peekMany(41);
    expect(all).toEqual([-1, ...source]);
    expect(queue.peekMany(41)).toBe(all);
    expect(queue.take(41)).toBe(all);
    expect(queue.totalSize).toBe(0);
  });

  test("a large range after lending the storage leaves the lent values alone and discards them in order", () => {
    const queue = new QueueWithSizes<number>();
    queue.enqueueUnits([1, 2, 3]);
    const lent = queue.peekMany(3);
    queue.enqueueUnitsFrom(
      Float64Array.from({ length: 20 }, (_, i) => 10 + i),
      0,
      20,
    );
    expect(lent).toEqual([1, 2, 3]);
    expect(queue.length).toBe(23);
    queue.discard(3);
    expect(queue.take(queue.length)).toEqual(Array.from({ length: 20 }, (_, i) => 10 + i));
    expect(queue.totalSize).toBe(0);
  });

  test("an empty queue adopts a handed-over array, and hands its storage out only when peeking all of it", () => {
    const queue = new QueueWithSizes<string>();
    const batch = ["a", "b", "c"];
    queue.enqueueUnits(batch);
    expect(queue.length).toBe(3);
    expect(queue.totalSize).toBe(3);
    expect(queue.peekMany(2)).not.toBe(batch);
    const all = queue.peekMany(3);
    expect(all).toBe(batch);
    queue.enqueue("d", 1);
    all.length = 0;
    queue.discard(3);
    expect(queue.length).toBe(1);
    expect(queue.totalSize).toBe(1);
    expect(queue.dequeue()).toBe("d");
  });

  test("leaving unit mode keeps the sizes of the values already queued, including lent ones", () => {
    const queue = new QueueWithSizes<string>();
    queue.enqueueUnits(["a", "b"]);
    queue.peekMany(2);
    queue.enqueue("c", 2.5);
    expect(queue.hasUnitSizes).toBe(false);
    expect(queue.totalSize).toBe(4.5);
    queue.discard(2);
    expect(queue.totalSize).toBe(2.5);
    expect(queue.take(1)).toEqual(["c"]);
    expect(queue.totalSize).toBe(0);
  });

  test("range removals subtract sizes one at a time, clamping at zero like DequeueValue", () => {
    const single = new QueueWithSizes<string>();
    const range = new QueueWithSizes<string>();
    for (const size of [0.1, 0.2, 0.3, 1e-17]) {
      single.enqueue("x", size);
      range.enqueue("x", size);
    }
    for (let i = 0; i < 4; i++) single.dequeue();
    range.discard(4);
    expect(range.totalSize).toBe(single.totalSize);
  });
});
