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
 * Each variant runs in processes of its own (`03-number-pipeline.variant.ts`), so no call site, heap or collector
 * state is shared between variants. Every variant reads the same chunks of an in-memory copy of the file (no disk
 * I/O is timed), and every run's parts are joined and compared byte for byte with the input, which is canonical.
 *
 * Run alone: `npx node bench/scenarios/03-number-pipeline.ts [--count N] [--rounds N] [--runs N] [--warmups N]
 * [--maxPartBytes N]`
 * (`--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { median } from "simple-statistics";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { primesText } from "../workloads/primes-file.ts";
import {
  BATCH,
  FUSED,
  NODE_STREAM,
  PER_NUMBER,
  VARIANTS,
  type VariantReport,
  type VariantRun,
} from "./03-number-pipeline.variant.ts";

/** Options of {@linkcode runNumberPipeline}. */
export interface NumberPipelineOptions {
  /** How many primes the input holds (default 10,000,000). */
  count?: number;
  /** Processes per variant, variants interleaved round by round (default 3). */
  rounds?: number;
  /** Timed runs in each process, after the untimed ones, each after a full garbage collection (default 3). */
  runs?: number;
  /** Untimed runs in each process before the timed ones (default 2); the first is reported as the cold run. */
  warmups?: number;
  /** Part size limit (default 10 MiB, the worker's default). */
  maxPartBytes?: number;
}

/** The process that runs one variant. */
const VARIANT_SCRIPT = resolve(import.meta.dirname, "03-number-pipeline.variant.ts");

/** Runs `name` in a process of its own (this process's Node and flags). */
async function runVariantProcess(name: string, run: VariantRun): Promise<VariantReport> {
  const { count, maxPartBytes, runs, warmups } = run;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, VARIANT_SCRIPT, name, String(count), String(maxPartBytes), String(runs), String(warmups)],
    { maxBuffer: 16 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as VariantReport;
}

/** Runs scenario 3 and checks every variant's output against the input. */
async function runNumberPipeline(options: NumberPipelineOptions = {}): Promise<ScenarioResult> {
  const count = options.count ?? 10_000_000;
  const rounds = options.rounds ?? 3;
  const runs = options.runs ?? 3;
  const warmups = options.warmups ?? 2;
  const maxPartBytes = options.maxPartBytes ?? 10 * 1024 * 1024;
  const input = await primesText(count);
  const samples = new Map<string, number[]>(VARIANTS.map((variant) => [variant.name, []]));
  const reports = new Map<string, VariantReport[]>(VARIANTS.map((variant) => [variant.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const variant of VARIANTS) {
      const report = await runVariantProcess(variant.name, { count, maxPartBytes, runs, warmups });
      samples.get(variant.name)!.push(...report.ms);
      reports.get(variant.name)!.push(report);
    }
  }
  const checks: OutputCheck[] = VARIANTS.map(({ name }) => {
    const all = reports.get(name)!;
    const ok = all.every((report) => report.identical && report.inputBytes === input.length);
    return {
      variant: name,
      ok,
      detail:
        `${all[0]!.parts} parts joined = input (${input.length} bytes) in all ${all.length * (runs + warmups)} runs: ` +
        String(ok),
    };
  });
  const baseline = median(samples.get(NODE_STREAM)!);
  const perNumber = samples.get(PER_NUMBER)!;
  const batch = samples.get(BATCH)!;
  const perRunRatios = perNumber.map((ms, run) => ms / batch[run]!);
  const fused = median(samples.get(FUSED)!);
  const cold = (name: string) => median(reports.get(name)!.map((report) => report.coldMs));
  const rows = VARIANTS.map((variant) => {
    const ms = median(samples.get(variant.name)!);
    return {
      variant: variant.name,
      "median ms": significant(ms, 4),
      "numbers/s": Math.round(count / (ms / 1000)),
      "MB/s": significant(input.length / 1e6 / (ms / 1000)),
      "× vs node:stream": significant(baseline / ms),
      "cold run ms": significant(cold(variant.name), 4),
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
    columns: [
      "variant",
      "median ms",
      "numbers/s",
      "MB/s",
      "× vs node:stream",
      "cold run ms",
      "samples ms",
      "output identical",
    ],
    rows,
    notes: [
      `Input: the first ${count.toLocaleString("en")} primes (${input.length.toLocaleString("en")} bytes, ` +
        `canonical), read once into memory and fed in 64 KiB chunks; parts of at most ${maxPartBytes} bytes in ` +
        `a MemoryStore. Each variant runs in processes of its own (03-number-pipeline.variant.ts), ${rounds} ` +
        `per variant, variants interleaved round by round; each process runs ${warmups} untimed ` +
        `run${warmups === 1 ? "" : "s"}, then ${runs} timed run${runs === 1 ? "" : "s"}, a full garbage ` +
        `collection before each; medians of the ${rounds * runs} timed runs. Cold run ms: the median over the ` +
        "processes of each one's first run, which includes compiling the code (the next one still runs about 10 % " +
        "slower than the ones after it, hence a second untimed run).",
      ...VARIANTS.map((variant) => `${variant.name}: ${variant.description}.`),
      `Per-number ÷ batch on drainpipe's streams: ${significant(median(perNumber) / median(batch), 3)} (ratio ` +
        `of the medians); ${significant(median(perRunRatios), 3)} (median of the ratios of the n-th timed runs: ` +
        `${perRunRatios.map((ratio) => significant(ratio, 3)).join(", ")}).`,
      `Against the fused loop (ratios of the medians): per-number ${significant(median(perNumber) / fused, 3)}, ` +
        `batch ${significant(median(batch) / fused, 3)}; cold runs: per-number ` +
        `${significant(cold(PER_NUMBER) / cold(FUSED), 3)}, batch ${significant(cold(BATCH) / cold(FUSED), 3)}; ` +
        "scenario 7 measures the same inside workerd.",
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
    rounds: "processes per variant, variants interleaved round by round (default 3)",
    runs: "timed runs in each process, after the untimed ones, each after a full garbage collection (default 3)",
    warmups: "untimed runs in each process before the timed ones (default 2; the first is the cold run)",
    maxPartBytes: "part size limit in bytes (default 10 MiB, the worker's default)",
  },
  quick: { count: 20_000, rounds: 1, runs: 1, warmups: 1, maxPartBytes: 16 * 1024 },
  run: async (options) => [await runNumberPipeline(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
