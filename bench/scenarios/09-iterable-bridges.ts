/**
 * Scenario 9: drainpipe's bridges to the iterable-streams API (`node:stream/iter`, Node 26 behind
 * `--experimental-stream-iter`), in chunks/s: `count` chunks of `size` bytes through the API's `from()` of a
 * generator, of a native `ReadableStream` and of a drainpipe `ReadableStream`; the API's `pipeTo` into a
 * one-write-per-chunk writer over a native and over a drainpipe `WritableStream`, and into `toWriter` over a
 * drainpipe `WritableStream`; and `fromStreamable` read with `readMany`. Each variant runs in a process of its own
 * (`09-iterable-bridges.variant.ts` on the project's Node 26, drainpipe from `src/`), `runs` times; the best run
 * counts. Every run's chunks and bytes are checked.
 *
 * Run alone: `npx node bench/scenarios/09-iterable-bridges.ts [--count N] [--size N] [--runs N]` (`--quick` for the
 * quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { ensureNode26, STREAM_ITER_FLAG } from "../../scripts/node26.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { VARIANT_NAMES, type VariantCounts, type VariantName } from "./09-iterable-bridges.variant.ts";

/** Options of scenario 9. */
export interface IterableBridgesOptions {
  /** Chunks per run (default 200,000). */
  count?: number;
  /** Bytes per chunk (default 100). */
  size?: number;
  /** Runs per variant, in one process; the best counts (default 3). */
  runs?: number;
}

const ROOT = resolve(import.meta.dirname, "../..");
const VARIANT_SCRIPT = "bench/scenarios/09-iterable-bridges.variant.ts";

/** What a variant's process prints. */
interface VariantReport extends VariantCounts {
  ms: number[];
}

async function runVariant(node: string, name: VariantName, count: number, size: number, runs: number) {
  const { stdout } = await promisify(execFile)(
    node,
    [STREAM_ITER_FLAG, "--no-warnings", VARIANT_SCRIPT, name, String(count), String(size), String(runs)],
    { cwd: ROOT, maxBuffer: 16 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as VariantReport;
}

/** The goals of issue #26, as pairs of variants: `variant` ≥ `factor` × `of`. */
const GOALS: { variant: VariantName; factor: number; of: VariantName }[] = [
  { variant: "from(drainpipe ReadableStream)", factor: 0.8, of: "from(generator)" },
  { variant: "from(drainpipe ReadableStream)", factor: 3, of: "from(native ReadableStream)" },
  {
    variant: "pipeTo(from(generator), toWriter(drainpipe WritableStream))",
    factor: 3,
    of: "pipeTo(from(generator), one-write-per-chunk writer over a drainpipe WritableStream)",
  },
  { variant: "fromStreamable(from(generator)) read with readMany", factor: 0.8, of: "from(generator)" },
];

async function runIterableBridges(options: IterableBridgesOptions): Promise<ScenarioResult> {
  const count = options.count ?? 200_000;
  const size = options.size ?? 100;
  const runs = options.runs ?? 3;
  const node = ensureNode26();
  const version = (await promisify(execFile)(node, ["--version"])).stdout.trim();
  const reports = new Map<VariantName, VariantReport>();
  const checks: OutputCheck[] = [];
  for (const name of VARIANT_NAMES) {
    const report = await runVariant(node, name, count, size, runs);
    reports.set(name, report);
    const ok = report.chunks === count && report.bytes === count * size;
    checks.push({
      variant: name,
      ok,
      detail: `${report.chunks} chunks, ${report.bytes} bytes (of ${count} × ${size})`,
    });
  }
  const rate = (name: VariantName): number => count / (Math.min(...reports.get(name)!.ms) / 1000);
  const baseline = rate("from(generator)");
  const rows = VARIANT_NAMES.map((name) => {
    const report = reports.get(name)!;
    return {
      variant: name,
      "chunks/s": Math.round(rate(name)),
      "chunks per batch": significant(report.chunks / report.batches, 3),
      "× from(generator)": significant(rate(name) / baseline),
      "runs ms": report.ms.map((ms) => Math.round(ms)).join(", "),
    };
  });
  return {
    id: "iterable-bridges",
    title: `${count.toLocaleString("en")} chunks of ${size} bytes across the iterable-streams bridges`,
    runtime: `node ${version.slice(1)} ${STREAM_ITER_FLAG}`,
    columns: ["variant", "chunks/s", "chunks per batch", "× from(generator)", "runs ms"],
    rows,
    notes: [
      `Each variant in a process of its own on Node ${version} with ${STREAM_ITER_FLAG}, ${runs} runs over the same ` +
        "pre-made chunks; chunks/s of the best run. Writable streams have a high-water mark of 1024 chunks and a " +
        "sink that only counts. Chunks per batch: steps of the consuming loop, or sink calls, per chunk moved.",
      "fromStreamable enqueues each batch as one chunk of its bytes (copied once: a byte stream detaches what it " +
        "is given), so readMany reads one chunk per batch.",
      ...GOALS.map(({ variant, factor, of }) => {
        const ratio = rate(variant) / rate(of);
        const verdict = ratio >= factor ? "met" : "not met";
        return `Goal: ${variant} ≥ ${factor}× ${of}: ${significant(ratio, 3)}× (${verdict}).`;
      }),
    ],
    speedups: VARIANT_NAMES.map((name) => ({ label: name, value: significant(rate(name) / baseline) })),
    checks,
  };
}

/** Scenario 9. */
export const scenario = defineScenario<IterableBridgesOptions>({
  id: "iterable-bridges",
  title: "Iterable-streams bridges",
  measures:
    "chunks/s of 200,000 chunks of 100 bytes through Node 26's node:stream/iter from() of a generator, a native " +
    "and a drainpipe ReadableStream; its pipeTo into one-write-per-chunk writers and into toWriter; and " +
    "fromStreamable read with readMany; every run's chunk and byte counts checked.",
  why:
    "to see whether batches cross whole between drainpipe's streams and the iterable-streams API, and the goals " +
    "of issue #26 (from(drainpipe) ≥ 0.8× from(generator) and ≥ 3× from(native); toWriter ≥ 3× one write per " +
    "chunk; fromStreamable with readMany ≥ 0.8× iterating directly).",
  options: {
    count: "chunks per run (default 200,000)",
    size: "bytes per chunk (default 100)",
    runs: "runs per variant in its process; the best counts (default 3)",
  },
  quick: { count: 2000, size: 10, runs: 1 },
  run: async (options) => [await runIterableBridges(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
