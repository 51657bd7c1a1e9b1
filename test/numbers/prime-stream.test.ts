import { describe, expect, test } from "vitest";
import { MAX_PRIME_COUNT, primeBatches } from "../../src/numbers/prime-batches.ts";
import { primeStream } from "../../src/numbers/prime-stream.ts";
import { collect } from "./support.ts";

describe("primeStream", () => {
  test("streams the first primes one per chunk", async () => {
    expect(await collect(primeStream(10))).toEqual([2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
  });

  test("streams the same primes as primeBatches across its internal batches", async () => {
    const expected = [...primeBatches(10_000)].flatMap((batch) => Array.from(batch));
    expect(await collect(primeStream(10_000))).toEqual(expected);
  });

  test("closes at once for count 0", async () => {
    expect(await collect(primeStream(0))).toEqual([]);
  });

  test("can be cancelled part way", async () => {
    const reader = primeStream(MAX_PRIME_COUNT).getReader();
    expect((await reader.read()).value).toBe(2);
    expect((await reader.read()).value).toBe(3);
    await reader.cancel();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  test("rejects a bad count at the call", () => {
    expect(() => primeStream(-1)).toThrow(RangeError);
  });
});
