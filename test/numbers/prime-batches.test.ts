import { describe, expect, test } from "vitest";
import { MAX_PRIME_COUNT, nthPrimeUpperBound, primeBatches } from "../../src/numbers/prime-batches.ts";

/** The primes below `max` by trial division (slow, obviously right). */
function primesBelow(max: number): number[] {
  const primes: number[] = [];
  candidates: for (let n = 2; n < max; n++) {
    for (const p of primes) {
      if (p * p > n) break;
      if (n % p === 0) continue candidates;
    }
    primes.push(n);
  }
  return primes;
}

function allPrimes(count: number, batchSize?: number): Float64Array {
  const all = new Float64Array(count);
  let filled = 0;
  for (const batch of primeBatches(count, { batchSize })) {
    all.set(batch, filled);
    filled += batch.length;
  }
  expect(filled).toBe(count);
  return all;
}

describe("primeBatches", () => {
  test("yields the first 25 primes", () => {
    expect(Array.from(allPrimes(25))).toEqual(primesBelow(100));
  });

  test("yields nothing for count 0", () => {
    expect([...primeBatches(0)]).toEqual([]);
  });

  test("yields full batches and a shorter last one", () => {
    const batches = [...primeBatches(11, { batchSize: 4 })];
    expect(batches.map((batch) => Array.from(batch))).toEqual([
      [2, 3, 5, 7],
      [11, 13, 17, 19],
      [23, 29, 31],
    ]);
    expect(batches.every((batch) => batch instanceof Float64Array)).toBe(true);
    expect([...primeBatches(8, { batchSize: 4 })].map((batch) => batch.length)).toEqual([4, 4]);
    expect([...primeBatches(100)].map((batch) => batch.length)).toEqual([100]);
  });

  test("matches trial division over several sieve segments", () => {
    const expected = primesBelow(1_100_000);
    expect(Array.from(allPrimes(expected.length))).toEqual(expected);
  });

  test("finds the 78,498 primes below 1,000,000", () => {
    const primes = allPrimes(78_498);
    expect(primes[78_497]).toBe(999_983);
    expect(allPrimes(78_499)[78_498]).toBe(1_000_003);
  });

  test("finds the 1,000,000th prime, 15,485,863", () => {
    let last = 0;
    let count = 0;
    for (const batch of primeBatches(1_000_000)) {
      count += batch.length;
      last = batch[batch.length - 1]!;
    }
    expect(count).toBe(1_000_000);
    expect(last).toBe(15_485_863);
  });

  test("batch boundaries do not change the sequence", () => {
    const reference = allPrimes(200_000);
    for (const batchSize of [1, 7, 4096, 65_536, 1_000_000]) {
      expect(allPrimes(200_000, batchSize)).toEqual(reference);
    }
  });

  test("checks its arguments at the call", () => {
    for (const count of [-1, 1.5, Number.NaN, MAX_PRIME_COUNT + 1]) {
      expect(() => primeBatches(count)).toThrow(RangeError);
    }
    expect(() => primeBatches(10, { batchSize: 0 })).toThrow(
      "Cannot generate primes: batchSize must be a positive safe integer, got 0",
    );
    expect(() => primeBatches(MAX_PRIME_COUNT)).not.toThrow();
  });
});

describe("nthPrimeUpperBound", () => {
  test.each([
    [1, 2],
    [5, 11],
    [6, 13],
    [25, 97],
    [1_000_000, 15_485_863],
    [100_000_000, 2_038_074_743],
    [MAX_PRIME_COUNT, 22_801_763_489],
  ])("bounds p_%d = %d from above", (n, prime) => {
    expect(nthPrimeUpperBound(n)).toBeGreaterThanOrEqual(prime);
  });

  test("is n(ln n + ln ln n) rounded up from n = 6 on", () => {
    expect(nthPrimeUpperBound(100_000_000)).toBe(2_133_415_474);
  });

  test("rejects n that is not a positive safe integer", () => {
    expect(() => nthPrimeUpperBound(0)).toThrow(RangeError);
    expect(() => nthPrimeUpperBound(2.5)).toThrow(RangeError);
  });
});
