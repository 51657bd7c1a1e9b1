import { describe, expect, test } from "vitest";
import { SimpleQueue } from "../../../src/streams/standard/simple-queue.ts";

describe("SimpleQueue", () => {
  test("keeps FIFO order across compactions and emptying", () => {
    const queue = new SimpleQueue<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 97; i++) queue.push(next++);
      for (let i = 0; i < 60; i++) out.push(queue.shift());
    }
    while (queue.length > 0) out.push(queue.shift());
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  test("length, peek and forEach see the live items only", () => {
    const queue = new SimpleQueue<string>();
    queue.push("a");
    queue.push("b");
    queue.push("c");
    expect(queue.shift()).toBe("a");
    expect(queue.length).toBe(2);
    expect(queue.peek()).toBe("b");
    const seen: string[] = [];
    queue.forEach((item) => {
      seen.push(item);
    });
    expect(seen).toEqual(["b", "c"]);
  });

  test("remove takes out one item and keeps the others in order", () => {
    const queue = new SimpleQueue<string>();
    for (const item of ["a", "b", "c", "d"]) queue.push(item);
    expect(queue.shift()).toBe("a");
    expect(queue.remove("c")).toBe(true);
    expect(queue.remove("x")).toBe(false);
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift()]).toEqual(["b", "d"]);
    queue.push("e");
    expect(queue.remove("e")).toBe(true);
    expect(queue.length).toBe(0);
  });
});
