/**
 * Scenario 3: the pipeline of the Node `_writev` splitting article on the first N primes (10 M by default), as
 * text read in 64 KiB chunks, parsed into numbers and rotated into newline-aligned 10 MiB parts in an in-memory
 * store:
 *
 * - per-number: file chunks → `LineToNumberStream` (one number per chunk) → `SplitWritableStream`, on
 *   drainpipe's streams as `src/` uses them, and the same pipeline on the runtime's native streams;
 * - batch: the same with `LineToNumberBatchStream` (one `Float64Array` per input chunk);
 * - node:stream: that article's accumulator `LineToNumber` Transform and `_writev` `NumberWriter`
 *   (highWaterMark 4096) writing through the same `PartSplitter`;
 * - fused: parse, re-encode and rotate in one loop, the floor.
 *
 * Every variant reads the same chunks of one in-memory copy of the file (no disk I/O is timed), and every run's
 * parts are joined and compared byte for byte with the input, which is canonical.
 *
 * Run alone: `npx node bench/scenarios/03-number-pipeline.ts [--count N] [--runs N] [--maxPartBytes N]`
 * (`--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { pipeline } from "node:stream/promises";
import { median } from "simple-statistics";
import { NumberParser } from "../../src/numbers/number-parser.ts";
import { PartSplitter } from "../../src/split/part-splitter.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant, timed } from "../harness/stats.ts";
import { chunksOf, readObjects, sameBytes, streamOf } from "../workloads/byte-chunks.ts";
import { fusedSplit } from "../workloads/fused-split.ts";
import { splitBatch, splitPerNumber } from "../workloads/number-pipelines.ts";
import { primesText } from "../workloads/primes-file.ts";
import { collectGarbage } from "./03-number-pipeline.collect-garbage.ts";
import { LineToNumber, NumberWriter, nodeReadableOf } from "./03-number-pipeline.node-stream.ts";

/** Options of {@linkcode runNumberPipeline}. */
export interface NumberPipelineOptions {
  /** How many primes the input holds (default 10,000,000). */
  count?: number;
  /** Timed runs per variant, interleaved round by round, each after a full garbage collection (default 7). */
  runs?: number;
  /** Part size limit (default 10 MiB, the worker's default). */
  maxPartBytes?: number;
}

/** One variant: splits `chunks` into `store` and resolves the part keys in order. */
interface Variant {
  name: string;
  description: string;
  split: (chunks: readonly Uint8Array[], store: MemoryStore, maxPartBytes: number) => Promise<string[]>;
}

function splitterFor(store: MemoryStore, uploadId: string, maxPartBytes: number): PartSplitter {
  return new PartSplitter({ store, name: "bench", uploadId, maxPartBytes });
}

/** The per-number contract on drainpipe's streams, which issue #3 wants within 1.25× of {@link BATCH}. */
const PER_NUMBER = "per-number, drainpipe streams (LineToNumberStream)";
/** The batch contract on drainpipe's streams. */
const BATCH = "batch, drainpipe streams (LineToNumberBatchStream)";

/** The node:stream pipeline of the Node `_writev` splitting article: the baseline of the speedups. */
const NODE_STREAM = "node:stream (_writev splitting article)";

/** The fused loop: the floor the per-number and batch contracts are compared with, here and in workerd (scenario 7). */
const FUSED = "fused loop (floor)";

/** The variants, in table order. */
const VARIANTS: Variant[] = [
  {
    name: "per-number, native streams",
    description:
      "the same per-number pipeline built on the runtime's own WHATWG streams (a native TransformStream around " +
      "NumberParser, a native WritableStream around PartSplitter), as src/ was before drainpipe's streams",
    async split(chunks, store, maxPartBytes) {
      const splitter = splitterFor(store, "native", maxPartBytes);
      const parser = new NumberParser();
      const one = new Float64Array(1);
      const toNumbers = new globalThis.TransformStream<Uint8Array, number>({
        transform(chunk, controller) {
          for (const value of parser.push(chunk)) controller.enqueue(value);
        },
        flush(controller) {
          for (const value of parser.end()) controller.enqueue(value);
        },
      });
      const sink = new globalThis.WritableStream<number>({
        write(value) {
          one[0] = value;
          return splitter.write(one);
        },
      });
      await streamOf(chunks, globalThis.ReadableStream<Uint8Array>)
        .pipeThrough(toNumbers)
        .pipeTo(sink);
      return (await splitter.close()).map((part) => part.key);
    },
  },
  {
    name: PER_NUMBER,
    description: "file chunks → LineToNumberStream → SplitWritableStream (drainpipe's streams, as src/ uses them)",
    split: (chunks, store, maxPartBytes) => splitPerNumber(chunks, splitterFor(store, "per-number", maxPartBytes)),
  },
  {
    name: BATCH,
    description: "file chunks → LineToNumberBatchStream → SplitWritableStream (drainpipe's streams, as src/ uses them)",
    split: (chunks, store, maxPartBytes) => splitBatch(chunks, splitterFor(store, "batch", maxPartBytes)),
  },
  {
    name: NODE_STREAM,
    description: "Readable → accumulator LineToNumber Transform → _writev NumberWriter (hwm 4096) → PartSplitter",
    async split(chunks, store, maxPartBytes) {
      const writer = new NumberWriter(splitterFor(store, "node-stream", maxPartBytes));
      await pipeline(nodeReadableOf(chunks), new LineToNumber(), writer);
      return writer.parts.map((part) => part.key);
    },
  },
  {
    name: FUSED,
    description: "one loop over the bytes: parse, re-encode into the part buffer, rotate",
    split: (chunks, store, maxPartBytes) => fusedSplit(chunks, store, "bench/fused/", maxPartBytes),
  },
];

/** Runs scenario 3 and checks every variant's output against the input. */
async function runNumberPipeline(options: NumberPipelineOptions = {}): Promise<ScenarioResult> {
  const count = options.count ?? 10_000_000;
  const runs = options.runs ?? 7;
  const maxPartBytes = options.maxPartBytes ?? 10 * 1024 * 1024;
  const input = await primesText(count);
  const chunks = chunksOf(input);
  const samples = new Map<string, number[]>(VARIANTS.map((variant) => [variant.name, []]));
  const checks: OutputCheck[] = [];
  for (let run = 0; run < runs; run++) {
    for (const variant of VARIANTS) {
      const store = new MemoryStore();
      collectGarbage();
      const { ms, value: keys } = await timed(() => variant.split(chunks, store, maxPartBytes));
      samples.get(variant.name)!.push(ms);
      const output = await readObjects(store, keys);
      const ok = sameBytes(output, input);
      if (run === 0 || !ok) {
        checks.push({
          variant: variant.name,
          ok,
          detail: `${keys.length} parts joined = input (${input.length} bytes): ${ok}`,
        });
      }
    }
  }
  const baseline = median(samples.get(NODE_STREAM)!);
  const perNumber = samples.get(PER_NUMBER)!;
  const batch = samples.get(BATCH)!;
  const perRunRatios = perNumber.map((ms, run) => ms / batch[run]!);
  const fused = median(samples.get(FUSED)!);
  const rows = VARIANTS.map((variant) => {
    const ms = median(samples.get(variant.name)!);
    return {
      variant: variant.name,
      "median ms": significant(ms, 4),
      "numbers/s": Math.round(count / (ms / 1000)),
      "MB/s": significant(input.length / 1e6 / (ms / 1000)),
      "× vs node:stream": significant(baseline / ms),
      "samples ms": samples
        .get(variant.name)!
        .map((sample) => Math.round(sample))
        .join(", "),
      "output identical": checks.filter((check) => check.variant === variant.name).every((check) => check.ok)
        ? "yes"
        : "NO",
    };
  });
  return {
    id: "number-pipeline",
    title: `the Node _writev splitting article's pipeline on the first ${count.toLocaleString("en")} primes`,
    runtime: `node ${process.versions.node}`,
    columns: ["variant", "median ms", "numbers/s", "MB/s", "× vs node:stream", "samples ms", "output identical"],
    rows,
    notes: [
      `Input: the first ${count.toLocaleString("en")} primes (${input.length.toLocaleString("en")} bytes, ` +
        `canonical), read once into memory and fed in 64 KiB chunks; parts of at most ${maxPartBytes} bytes in ` +
        `a MemoryStore. Medians of ${runs} runs, variants interleaved, a full garbage collection before each ` +
        "timed run.",
      ...VARIANTS.map((variant) => `${variant.name}: ${variant.description}.`),
      `Per-number ÷ batch on drainpipe's streams: ${significant(median(perNumber) / median(batch), 3)} (ratio ` +
        `of the medians); ${significant(median(perRunRatios), 3)} (median of the ratios within each run: ` +
        `${perRunRatios.map((ratio) => significant(ratio, 3)).join(", ")}).`,
      `Against the fused loop (ratios of the medians): per-number ${significant(median(perNumber) / fused, 3)}, ` +
        `batch ${significant(median(batch) / fused, 3)}; scenario 7 measures the same inside workerd.`,
      "The node:stream variant is the Node _writev splitting article's corrected accumulator parser (no " +
        "`Buffer.copyBytesFrom(chunk, j, i)` length-for-end bug) and its `_writev` writer; its writer hands each " +
        "batch to drainpipe's PartSplitter instead of fs files.",
    ],
    speedups: VARIANTS.map((variant) => ({
      label: variant.name,
      value: significant(baseline / median(samples.get(variant.name)!)),
    })),
    checks,
  };
}

/** Scenario 3. */
export const scenario = defineScenario<NumberPipelineOptions>({
  id: "number-pipeline",
  title: "Number pipeline",
  measures:
    "numbers/s and MB/s of parsing the first 10 M primes (text in 64 KiB chunks, in memory) into numbers and " +
    "rotating them into newline-aligned 10 MiB parts: per-number and batch on drainpipe's streams, per-number on " +
    "the runtime's native streams, the Node _writev splitting article's node:stream pipeline (the baseline) and " +
    "a fused loop as the floor; every run's parts are compared byte for byte with the input.",
  why:
    "it is the worker's own work without the network: it shows what drainpipe's streams cost over a fused loop, " +
    "what they gain over native streams and node:stream, and whether the per-number contract stays within 1.25× " +
    "of the batch one (issue #3).",
  options: {
    count: "how many primes the input holds (default 10,000,000)",
    runs: "timed runs per variant, interleaved, each after a full garbage collection (default 7)",
    maxPartBytes: "part size limit in bytes (default 10 MiB, the worker's default)",
  },
  quick: { count: 20_000, runs: 1, maxPartBytes: 16 * 1024 },
  run: async (options) => [await runNumberPipeline(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
