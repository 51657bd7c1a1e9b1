/**
 * The largest `count` accepted by {@linkcode primeBatches}: one billion primes, the largest being
 * 22,801,763,489. That is about 11 GB of text, ten times the biggest input drainpipe is built for, while the
 * sieve's bound (about 2.4 × 10^10) and its base primes (below 155,000) stay small.
 */
export const MAX_PRIME_COUNT = 1_000_000_000;

/** The default number of primes per batch of {@linkcode primeBatches}. */
export const DEFAULT_PRIME_BATCH_SIZE = 65_536;

/** Odd numbers per sieve segment: one byte each, so 256 KiB of sieve memory. */
const SEGMENT_ODDS = 256 * 1024;

/** Options of {@linkcode primeBatches}. */
export interface PrimeBatchOptions {
  /** Primes per batch (all batches but the last are this long); default {@linkcode DEFAULT_PRIME_BATCH_SIZE}. */
  batchSize?: number;
}

/**
 * An upper bound of the n-th prime p_n (n ≥ 1): n(ln n + ln ln n), which exceeds p_n for n ≥ 6 (Rosser), and
 * 11 (= p_5) for smaller n.
 *
 * @throws {RangeError} when `n` is not a positive safe integer.
 *
 * @example
 * ```ts
 * // The 100,000,000th prime is 2_038_074_743; the bound:
 * nthPrimeUpperBound(100_000_000); // 2_133_415_474
 * ```
 */
export function nthPrimeUpperBound(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`Cannot bound the n-th prime: n must be a positive safe integer, got ${n}`);
  }
  if (n < 6) return 11;
  const log = Math.log(n);
  return Math.ceil(n * (log + Math.log(log)));
}

/**
 * Generates the first `count` primes in order, in batches of `batchSize` (the last batch is shorter; no batch
 * when `count` is 0). Each batch is a fresh array owned by the caller. A segmented sieve of Eratosthenes over
 * odd numbers finds them with bounded memory however large `count` is: a 256 KiB segment (one byte per odd
 * number, pre-stamped with the multiples of 3 to 13), a 1 MiB buffer of the segment's prime positions, the
 * current batch and the primes up to the square root of {@linkcode nthPrimeUpperBound}. Arguments are checked
 * at the call, not at the first `next()`.
 *
 * @throws {RangeError} when `count` is not a safe integer in [0, {@linkcode MAX_PRIME_COUNT}] or `batchSize`
 * is not a positive safe integer.
 *
 * @example
 * ```ts
 * const batches = [...primeBatches(5, { batchSize: 2 })];
 * batches.map((batch) => [...batch]); // [[2, 3], [5, 7], [11]]
 * ```
 */
export function primeBatches(count: number, options: PrimeBatchOptions = {}): Generator<Float64Array> {
  const batchSize = options.batchSize ?? DEFAULT_PRIME_BATCH_SIZE;
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_PRIME_COUNT) {
    throw new RangeError(`Cannot generate primes: count must be an integer in [0, ${MAX_PRIME_COUNT}], got ${count}`);
  }
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`Cannot generate primes: batchSize must be a positive safe integer, got ${batchSize}`);
  }
  return sieveBatches(count, batchSize);
}

/** The odd primes whose multiples are stamped from a precomputed pattern instead of being crossed out. */
const WHEEL_PRIMES = [3, 5, 7, 11, 13];
/** The pattern's period in odd numbers: 3 · 5 · 7 · 11 · 13. */
const WHEEL_ODDS = 15_015;
/** `WHEEL_PATTERN[i]` is 1 when the odd number 2i + 1 is a multiple of a wheel prime. */
const WHEEL_PATTERN = Uint8Array.from({ length: WHEEL_ODDS }, (_, i) =>
  WHEEL_PRIMES.some((p) => (2 * i + 1) % p === 0) ? 1 : 0,
);

function* sieveBatches(count: number, batchSize: number): Generator<Float64Array> {
  if (count === 0) return;
  const limit = nthPrimeUpperBound(count);
  const basePrimes = oddPrimesUpTo(Math.floor(Math.sqrt(limit))).filter((p) => !WHEEL_PRIMES.includes(p));
  // next[k]: segment index (i stands for low + 2i) of the next odd multiple of basePrimes[k] to cross out.
  // A base prime becomes active in the segment holding its square, so next[k] always fits an int32.
  const next = new Int32Array(basePrimes.length);
  let active = 0;
  const sieve = new Uint8Array(SEGMENT_ODDS);
  const found = new Int32Array(SEGMENT_ODDS);
  let batch = new Float64Array(Math.min(batchSize, count));
  batch[0] = 2;
  let filled = 1;
  let yielded = 0;
  for (let low = 1; yielded + filled < count; low += 2 * SEGMENT_ODDS) {
    stampWheel(sieve, ((low - 1) / 2) % WHEEL_ODDS);
    if (low === 1) {
      sieve[0] = 1;
      for (const p of WHEEL_PRIMES) sieve[(p - 1) / 2] = 0;
    }
    const high = low + 2 * SEGMENT_ODDS;
    for (let p = basePrimes[active]; p !== undefined && p * p < high; p = basePrimes[++active]) {
      next[active] = (p * p - low) / 2;
    }
    crossOut(sieve, basePrimes, next, active);
    const primes = collectUnmarked(sieve, found);
    for (let f = 0; f < primes && yielded + filled < count; ) {
      if (filled === batch.length) {
        yield batch;
        yielded += filled;
        batch = new Float64Array(Math.min(batchSize, count - yielded));
        filled = 0;
      }
      const take = Math.min(primes - f, batch.length - filled);
      for (let end = f + take; f < end; f++) batch[filled++] = low + 2 * found[f]!;
    }
  }
  yield batch;
}

/** Fills `sieve` with the wheel pattern, starting at pattern index `phase`. */
function stampWheel(sieve: Uint8Array, phase: number): void {
  let at = Math.min(WHEEL_ODDS - phase, sieve.length);
  sieve.set(WHEEL_PATTERN.subarray(phase, phase + at));
  for (; at < sieve.length; at += WHEEL_ODDS) sieve.set(WHEEL_PATTERN.subarray(0, sieve.length - at), at);
}

/** Crosses out the odd multiples of the first `active` base primes in the segment; advances `next`. */
function crossOut(sieve: Uint8Array, basePrimes: Int32Array, next: Int32Array, active: number): void {
  const size = sieve.length;
  for (let k = 0; k < active; k++) {
    const p = basePrimes[k]!;
    let j = next[k]!;
    for (; j < size; j += p) sieve[j] = 1;
    next[k] = j - size;
  }
}

/** Writes the indices of the unmarked (prime) entries of `sieve` to `found`; returns how many there are. */
function collectUnmarked(sieve: Uint8Array, found: Int32Array): number {
  let count = 0;
  for (let j = 0; j < sieve.length; j++) {
    // Branch-free: always write, advance only past a prime (entries are 0 or 1).
    found[count] = j;
    count += 1 - sieve[j]!;
  }
  return count;
}

/** The odd primes up to `max`, by a plain sieve of Eratosthenes over odd numbers. */
function oddPrimesUpTo(max: number): Int32Array {
  const odds = Math.max(0, Math.floor((max - 1) / 2)); // the odd numbers 3, 5, ..., up to max
  const composite = new Uint8Array(odds + 1); // index i stands for 2i + 1
  let found = 0;
  for (let i = 1; i <= odds; i++) {
    if (composite[i] !== 0) continue;
    found++;
    const p = 2 * i + 1;
    for (let j = (p * p - 1) / 2; j <= odds; j += p) composite[j] = 1;
  }
  const primes = new Int32Array(found);
  let n = 0;
  for (let i = 1; i <= odds; i++) if (composite[i] === 0) primes[n++] = 2 * i + 1;
  return primes;
}
