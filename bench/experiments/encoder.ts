/**
 * Experiment (not a registered scenario): the CPU cost per MB of output, in Node, of encoding the first N primes
 * as decimal lines with `encodeNumbersInto` (two digits per division by 100, `DIGIT_PAIRS`) against a variant that
 * writes four digits per division by 10,000 from a table of 10,000 four-byte entries read as one 32-bit word.
 * Both write into one reused 10 MiB buffer, 64 Ki numbers per call; the outputs are compared byte for byte.
 *
 * Run: `npx node bench/experiments/encoder.ts [--count 5000000] [--rounds 7]`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { median } from "simple-statistics";
import { digitCount, encodeNumbersInto } from "../../src/numbers/number-encoder.ts";
import { primeBatches } from "../../src/numbers/prime-batches.ts";

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "5000000" }, rounds: { type: "string", default: "7" } },
});
const count = Number(args.count);
const rounds = Number(args.rounds);

/** `QUADS[n]`: the four ASCII digits of n (0..9999, zero-padded), little-endian in one 32-bit word. */
const QUADS = Uint32Array.from({ length: 10_000 }, (_, n) => {
  const text = String(n).padStart(4, "0");
  return (
    (text.charCodeAt(0) | (text.charCodeAt(1) << 8) | (text.charCodeAt(2) << 16) | (text.charCodeAt(3) << 24)) >>> 0
  );
});

/** Non-negative numbers only (the primes): four digits per step, the leading group by `digitCount`. */
function encodeQuads(numbers: Float64Array, start: number, end: number, target: Uint8Array, view: DataView): number {
  let pos = 0;
  for (let i = start; i < end; i++) {
    let rest = numbers[i]!;
    const digits = digitCount(rest);
    let p = pos + digits;
    target[p] = 0x0a;
    pos = p + 1;
    while (p - (pos - 1 - digits) > 4) {
      const high = Math.floor(rest / 10_000);
      p -= 4;
      view.setUint32(p, QUADS[rest - high * 10_000]!, true);
      rest = high;
    }
    let small = rest | 0;
    while (p > pos - 1 - digits) {
      const high = (small / 10) | 0;
      target[--p] = 0x30 + small - high * 10;
      small = high;
    }
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
const view = new DataView(target.buffer);
const BATCH = 65_536;
const variants = {
  "encodeNumbersInto (pairs)": () => {
    let bytes = 0;
    for (let i = 0; i < count; i += BATCH)
      bytes += encodeNumbersInto(numbers, i, Math.min(count, i + BATCH), target, 0).written;
    return bytes;
  },
  "quads (experiment)": () => {
    let bytes = 0;
    for (let i = 0; i < count; i += BATCH) bytes += encodeQuads(numbers, i, Math.min(count, i + BATCH), target, view);
    return bytes;
  },
};
const check = new Uint8Array(10 << 20);
for (let i = 0; i < count; i += BATCH) {
  const end = Math.min(count, i + BATCH);
  const a = encodeNumbersInto(numbers, i, end, check, 0).written;
  const b = encodeQuads(numbers, i, end, target, view);
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
