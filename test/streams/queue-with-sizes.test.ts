import { describe, expect, test } from "vitest";
import { QueueWithSizes } from "../../src/streams/queue-with-sizes.ts";

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
