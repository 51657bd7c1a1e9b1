/**
 * Experiment (not a registered scenario): the CPU cost per MB of output, in Node, of encoding the first N primes
 * as decimal lines with `encodeNumbersInto` (four digits per division by 10,000 and two per division by 100, each
 * group stored as one word through a `DataView`) against the encoder it replaced: two digits per division by 100,
 * stored a byte at a time from `DIGIT_PAIRS`. Both write into one reused 10 MiB buffer, 64 Ki numbers per call; the
 * outputs are compared byte for byte.
 *
 * Run: `npx node bench/experiments/encoder.ts [--count 5000000] [--rounds 7]`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { median } from "simple-statistics";
import { DIGIT_PAIRS, digitCount, encodeNumbersInto } from "../../src/numbers/number-encoder.ts";
import { primeBatches } from "../../src/numbers/prime-batches.ts";

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "5000000" }, rounds: { type: "string", default: "7" } },
});
const count = Number(args.count);
const rounds = Number(args.rounds);

/** The former encoder, for non-negative numbers only (the primes): two digits per step, stored byte by byte. */
function encodePairs(numbers: Float64Array, start: number, end: number, target: Uint8Array): number {
  let pos = 0;
  for (let i = start; i < end; i++) {
    let rest = numbers[i]!;
    const newline = pos + digitCount(rest);
    target[newline] = 0x0a;
    let p = newline;
    while (rest > 0x7fffffff) {
      const high = Math.floor(rest / 100);
      const pair = (rest - high * 100) * 2;
      target[--p] = DIGIT_PAIRS[pair + 1]!;
      target[--p] = DIGIT_PAIRS[pair]!;
      rest = high;
    }
    let small = rest | 0;
    while (small >= 100) {
      const high = (small / 100) | 0;
      const pair = (small - high * 100) << 1;
      target[--p] = DIGIT_PAIRS[pair + 1]!;
      target[--p] = DIGIT_PAIRS[pair]!;
      small = high;
    }
    if (small >= 10) {
      target[--p] = DIGIT_PAIRS[(small << 1) + 1]!;
      target[--p] = DIGIT_PAIRS[small << 1]!;
    } else {
      target[--p] = 0x30 + small;
    }
    pos = newline + 1;
  }
  return pos;
}

const numbers = new Float64Array(count);
let filled = 0;
for (const batch of primeBatches(count)) {
  numbers.set(batch, filled);
  filled += batch.length;
}
const target = new Uint8Array(10 << 20);
const BATCH = 65_536;
const variants = {
  "encodeNumbersInto (four and two digits per store)": () => {
    let bytes = 0;
    for (let i = 0; i < count; i += BATCH)
      bytes += encodeNumbersInto(numbers, i, Math.min(count, i + BATCH), target, 0).written;
    return bytes;
  },
  "former encoder (pairs, byte stores)": () => {
    let bytes = 0;
    for (let i = 0; i < count; i += BATCH) bytes += encodePairs(numbers, i, Math.min(count, i + BATCH), target);
    return bytes;
  },
};
const check = new Uint8Array(10 << 20);
for (let i = 0; i < count; i += BATCH) {
  const end = Math.min(count, i + BATCH);
  const a = encodeNumbersInto(numbers, i, end, check, 0).written;
  const b = encodePairs(numbers, i, end, target);
  if (a !== b || target.subarray(0, a).some((byte, k) => byte !== check[k])) throw new Error(`differ at batch ${i}`);
}
const samples = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of Object.entries(variants)) {
    const before = process.cpuUsage();
    const bytes = run();
    const used = process.cpuUsage(before);
    samples.get(name)!.push((used.user + used.system) / 1000 / (bytes / 1e6));
  }
}
for (const [name, values] of samples) {
  console.log(`${name}: ${median(values).toFixed(2)} CPU ms per MB (${values.map((v) => v.toFixed(2)).join(", ")})`);
}
