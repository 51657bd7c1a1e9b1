/**
 * Experiment (not a registered scenario): the CPU cost per MB, in Node, of the ways to store a file of numbers,
 * over the first N primes held in memory, in chunks of 64 KiB and of 1 MiB, into a discarding store:
 *
 * - scan only: `scanCanonicalLines` over every chunk (the canonical pass-through's validator, nothing stored);
 * - scan only, SWAR: the same validator reading four bytes per 32-bit operation where it runs over digits;
 * - fused loop: parse, re-encode and rotate in one loop (`fusedSplit`, scenario 3's floor);
 * - batch: `LineToNumberBatchStream` → `SplitWritableStream`;
 * - per-number → storeNumbers: the upload path before the pass-through (`LineToNumberStream`, one number a chunk);
 * - pass-through (storeLines): the upload path now;
 *
 * each over canonical input and over the same numbers with `\r\n` line endings (not canonical, so re-encoded).
 * CPU is `process.cpuUsage()` (user + system) around each run; variants interleaved round by round, medians.
 *
 * Run: `npx node --expose-gc bench/experiments/pass-through.ts [--count 2000000] [--rounds 7]`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { markdownTable } from "markdown-table";
import { median } from "simple-statistics";
import { DiscardingStore } from "../../harness/discarding-store.ts";
import { storeLines, storeNumbers } from "../../src/files/store-numbers.ts";
import { type CanonicalRun, scanCanonicalLines } from "../../src/numbers/canonical-lines.ts";
import { LineToNumberStream } from "../../src/numbers/line-to-number-stream.ts";
import { PartSplitter } from "../../src/split/part-splitter.ts";
import { chunksOf, streamOf } from "../workloads/byte-chunks.ts";
import { fusedSplit } from "../workloads/fused-split.ts";
import { splitBatch } from "../workloads/number-pipelines.ts";
import { primesText } from "../workloads/primes-file.ts";

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "2000000" }, rounds: { type: "string", default: "7" } },
});
const count = Number(args.count);
const rounds = Number(args.rounds);
const PART_BYTES = 10 * 1024 * 1024;
const source = () => ({ kind: "upload" as const, bytes: 0, lines: 0, canonical: true });

/** The same lines with `\r\n` endings. */
function withCarriageReturns(bytes: Uint8Array): Uint8Array {
  let lines = 0;
  for (const byte of bytes) if (byte === 0x0a) lines++;
  const out = new Uint8Array(bytes.length + lines);
  let o = 0;
  for (const byte of bytes) {
    if (byte === 0x0a) out[o++] = 0x0d;
    out[o++] = byte;
  }
  return out;
}

/**
 * `scanCanonicalLines` with its digit loop reading four bytes at a time (little-endian `DataView` words): a byte `b`
 * is a digit when `b ^ 0x30` is below 10, which `((x + 0x76767676) | x) & 0x80808080` flags for four bytes at once
 * (a carry only reaches bytes after the first flagged one, so the lowest flag is exact).
 */
function scanSwar(bytes: Uint8Array, view: DataView, from: number, run: CanonicalRun): void {
  const length = bytes.length;
  let lines = 0;
  let end = from;
  let i = from;
  while (i < length) {
    let first = bytes[i]!;
    if (first === 0x2d) {
      if (++i === length) break;
      first = bytes[i]!;
    }
    const digits = i;
    if ((first - 0x31) >>> 0 <= 8) {
      i++;
      for (;;) {
        if (i + 4 > length) {
          while (i < length && (bytes[i]! - 0x30) >>> 0 <= 9) i++;
          break;
        }
        const x = view.getUint32(i, true) ^ 0x30303030;
        const flags = ((x + 0x76767676) | x) & 0x80808080;
        if (flags === 0) {
          i += 4;
          continue;
        }
        i += (31 - Math.clz32(flags & -flags)) >> 3;
        break;
      }
    } else if (first === 0x30 && digits === end) i++;
    else break;
    if (i === length || bytes[i] !== 0x0a) break;
    if (i - digits >= 16) break; // (the primes have fewer digits; the real scan compares with 2^53 - 1 here)
    end = ++i;
    lines++;
  }
  run.end = end;
  run.lines = lines;
}

interface Variant {
  name: string;
  run: (chunks: readonly Uint8Array[]) => Promise<unknown> | unknown;
}

const run: CanonicalRun = { end: 0, lines: 0, sorted: false };
const splitter = (store: DiscardingStore, id: string) =>
  new PartSplitter({ store, name: "bench", uploadId: id, maxPartBytes: PART_BYTES });
const VARIANTS: Variant[] = [
  {
    name: "scan only",
    run(chunks) {
      let lines = 0;
      for (const chunk of chunks) {
        scanCanonicalLines(chunk, 0, run);
        lines += run.lines;
      }
      return lines;
    },
  },
  {
    name: "scan only, SWAR",
    run(chunks) {
      let lines = 0;
      for (const chunk of chunks) {
        scanSwar(chunk, new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), 0, run);
        lines += run.lines;
      }
      return lines;
    },
  },
  { name: "fused loop", run: (chunks) => fusedSplit(chunks, new DiscardingStore(), "f/", PART_BYTES) },
  { name: "batch", run: (chunks) => splitBatch(chunks, splitter(new DiscardingStore(), "b")) },
  {
    name: "per-number → storeNumbers (before)",
    run: (chunks) =>
      storeNumbers(streamOf(chunks).pipeThrough(new LineToNumberStream()), {
        store: new DiscardingStore(),
        name: "bench",
        maxPartBytes: PART_BYTES,
        source,
      }),
  },
  {
    name: "pass-through (storeLines)",
    run: (chunks) =>
      storeLines(streamOf(chunks), { store: new DiscardingStore(), name: "bench", maxPartBytes: PART_BYTES, source }),
  },
];

const canonical = await primesText(count);
const inputs = [
  { name: "canonical", bytes: canonical },
  { name: "CRLF", bytes: withCarriageReturns(canonical) },
];
const gc = (globalThis as { gc?: () => void }).gc;
const rows: string[][] = [["input", "chunk", ...VARIANTS.map((variant) => variant.name)]];
for (const input of inputs) {
  for (const chunkBytes of [64 * 1024, 1024 * 1024]) {
    const chunks = chunksOf(input.bytes, chunkBytes);
    const mb = input.bytes.length / 1e6;
    const samples = VARIANTS.map(() => [] as number[]);
    for (let round = -1; round < rounds; round++) {
      for (const [v, variant] of VARIANTS.entries()) {
        // The scans stop at the first "\r" and the fused loop knows only canonical input.
        if (input.name !== "canonical" && (variant.name.startsWith("scan") || variant.name === "fused loop")) continue;
        gc?.();
        const before = process.cpuUsage();
        await variant.run(chunks);
        const used = process.cpuUsage(before);
        if (round >= 0) samples[v]!.push((used.user + used.system) / 1000 / mb);
      }
    }
    rows.push([
      `${input.name} (${mb.toFixed(1)} MB)`,
      `${chunkBytes / 1024} KiB`,
      ...samples.map((s) => (s.length > 0 ? median(s).toFixed(2) : "–")),
    ]);
  }
}
console.log(`CPU ms per MB, median of ${rounds} rounds, node ${process.versions.node}\n`);
console.log(markdownTable(rows));
