/**
 * Scenario 7: the number pipelines inside workerd, without HTTP. The bench worker (`bench/workers/ingest-worker.ts`,
 * started with wrangler's `unstable_dev`, so bundled as wrangler bundles it) receives the first N primes once (10 M
 * by default, 93 MB), and the same numbers written non-canonically (`\r\n` endings, leading zeros, blank lines:
 * `nonCanonicalText`), and holds both in memory; then each timed request runs one variant over one of them in
 * 64 KiB chunks, into a discarding store:
 *
 * - floor: held body read: the upload pipeline's byte stream read with `{ min: 1 MiB }` reads and nothing else;
 * - fused loop (floor): parse, re-encode and rotate in one loop (`fusedSplit`, as scenario 3);
 * - per-number: chunks → `LineToNumberStream` → `SplitWritableStream` (as scenario 3);
 * - batch: chunks → `LineToNumberBatchStream` → `SplitWritableStream` (as scenario 3);
 * - upload pipeline: scenario 4's "drainpipe → discarding store" (`storeRequestBody`, the canonical pass-through),
 *   its request's body a byte stream serving the held chunks instead of a network body, over the canonical and the
 *   non-canonical input.
 *
 * For each: the CPU time of the workerd process running it (user + system from `/proc/<pid>/stat`, until the
 * process is idle again) as CPU ms per MB of its input, the variant's time by the worker's clock, and both as
 * ratios to the fused loop.
 * Variants are interleaved round by round; an untimed run of each first stores every part's SHA-256, checked against
 * the input, and every timed run must store parts of the same sizes.
 *
 * Run alone: `npx node bench/scenarios/07-pipelines-in-workerd.ts [--count N] [--runs N] [--maxPartBytes N]`
 * (`--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "simple-statistics";
import { type DiscardedObject, discardedEqual, sha256 } from "../../harness/discarding-store.ts";
import type { RunningWorker } from "../../harness/local-worker.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { measureRequest, postJson, startIngestWorker } from "../workers/bench-worker.ts";
import { nonCanonicalText } from "../workloads/non-canonical.ts";
import { primesText } from "../workloads/primes-file.ts";

/** Options of {@linkcode runPipelinesInWorkerd}. */
export interface PipelinesInWorkerdOptions {
  /** How many primes the held input holds (default 10,000,000). */
  count?: number;
  /** Timed runs per variant, interleaved round by round (default 5). */
  runs?: number;
  /** Part size limit (default 10 MiB, the worker's default). */
  maxPartBytes?: number;
}

const MB = 1_000_000;

/** One variant: a `variant` of the bench worker's `/held/run` over one of its held inputs. */
interface Variant {
  /** Names the variant in the scenario. */
  id: string;
  /** The worker's name for it. */
  variant: "read" | "fused" | "per-number" | "batch" | "ingest";
  /** The held input it runs over. */
  input: "canonical" | "non-canonical";
  name: string;
  description: string;
}

/** The variants, in table order: the fused loop first, the baseline of every ratio. */
const VARIANTS: Variant[] = [
  {
    id: "fused",
    variant: "fused",
    input: "canonical",
    name: "fused loop (floor)",
    description:
      "one loop over the chunks: parse, re-encode into the part buffer, rotate (bench/workloads/fused-split.ts)",
  },
  {
    id: "read",
    variant: "read",
    input: "canonical",
    name: "floor: held body read ({ min: 1 MiB })",
    description:
      "the upload pipeline's request body (a byte stream copying one held chunk per pull) read with { min: 1 MiB } " +
      "reads into one buffer, and nothing else",
  },
  {
    id: "per-number",
    variant: "per-number",
    input: "canonical",
    name: "per-number (LineToNumberStream)",
    description: "chunks → LineToNumberStream → SplitWritableStream, as scenario 3 runs it in Node",
  },
  {
    id: "batch",
    variant: "batch",
    input: "canonical",
    name: "batch (LineToNumberBatchStream)",
    description: "chunks → LineToNumberBatchStream → SplitWritableStream, as scenario 3 runs it in Node",
  },
  {
    id: "ingest",
    variant: "ingest",
    input: "canonical",
    name: "upload pipeline → discarding store",
    description:
      "scenario 4's drainpipe → discarding store row (storeRequestBody: pooled 1 MiB reads, byte limit, the " +
      "canonical pass-through storeLines and its manifest) over a Request whose body is a byte stream that copies " +
      "one held chunk into the pipeline's buffer per pull",
  },
  {
    id: "ingest-non-canonical",
    variant: "ingest",
    input: "non-canonical",
    name: "upload pipeline → discarding store, non-canonical input",
    description:
      "the same over the non-canonical input (every line ended by \\r\\n, a leading zero on every 8th, a blank " +
      "line after every 64th), whose every line the pipeline parses and encodes again; its CPU ms per MB is per MB " +
      "of that larger input",
  },
];

/** What `/held/run` answers: the variant's time by the worker's clock, the stored parts in order, bytes read. */
interface HeldRun {
  ms: number;
  objects: DiscardedObject[];
  read?: number;
}

/** One timed run: the worker's ms, the request's ms as Node saw it, the workerd process's CPU ms. */
interface Sample {
  workerMs: number;
  requestMs: number;
  cpuMs: number;
}

function runPath(variant: Variant, maxPartBytes: number, digests: boolean): string {
  const query = `variant=${variant.variant}&input=${variant.input}&maxPartBytes=${maxPartBytes}`;
  return `/held/run?${query}${digests ? "&digests=1" : ""}`;
}

/** `a / b` to 3 significant digits, or "–" when `b` is 0 (a run too short for the clock or the CPU ticks). */
function ratio(a: number, b: number): number | string {
  return b > 0 ? significant(a / b) : "–";
}

/** Sends an input to the worker to hold under `name`, and checks that it holds exactly those bytes. */
async function holdInput(worker: RunningWorker, name: Variant["input"], input: Uint8Array): Promise<OutputCheck> {
  const held = (await postJson(worker, `/held/input?input=${name}`, input)) as { bytes: number; sha256: string };
  const ok = held.bytes === input.length && held.sha256 === (await sha256(input));
  return { variant: `held ${name} input`, ok, detail: `${held.bytes} bytes held, SHA-256 = input's: ${ok}` };
}

/**
 * The untimed run of `variant` with digests: checks its parts against the canonical input (what storing either
 * input gives) or, for the read floor, that it read all of its input; returns the parts' sizes too.
 */
async function checkedRun(
  worker: RunningWorker,
  variant: Variant,
  inputs: Record<Variant["input"], Uint8Array>,
  maxPartBytes: number,
): Promise<{ check: OutputCheck; sizes: string }> {
  const { objects, read } = (await postJson(worker, runPath(variant, maxPartBytes, true))) as HeldRun;
  const input = inputs[variant.input];
  const canonical = inputs.canonical;
  const sizes = objects.map((object) => object.bytes).join(",");
  if (variant.variant === "read") {
    const ok = read === input.length && objects.length === 0;
    return { check: { variant: variant.name, ok, detail: `read ${read} bytes of ${input.length}: ${ok}` }, sizes };
  }
  const ok = await discardedEqual(objects, canonical);
  return {
    check: {
      variant: variant.name,
      ok,
      detail:
        `SHA-256 of each of ${objects.length} parts = slice of the canonical input (${canonical.length} bytes in ` +
        `all): ${ok}`,
    },
    sizes,
  };
}

/** Runs scenario 7: starts the bench worker, has it hold the input, checks every variant, then times them. */
async function runPipelinesInWorkerd(options: PipelinesInWorkerdOptions = {}): Promise<ScenarioResult> {
  const count = options.count ?? 10_000_000;
  const runs = options.runs ?? 5;
  const maxPartBytes = options.maxPartBytes ?? 10 * 1024 * 1024;
  const input = await primesText(count);
  const inputs = { canonical: input, "non-canonical": nonCanonicalText(input) };
  const samples = new Map<Variant["id"], Sample[]>(VARIANTS.map((variant) => [variant.id, []]));
  const checks: OutputCheck[] = [];
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-held-bench-"));
  try {
    const worker = await startIngestWorker(stateDir);
    try {
      checks.push(await holdInput(worker, "canonical", input));
      checks.push(await holdInput(worker, "non-canonical", inputs["non-canonical"]));
      const sizes = new Map<Variant["id"], string>();
      for (const variant of VARIANTS) {
        const checked = await checkedRun(worker, variant, inputs, maxPartBytes);
        checks.push(checked.check);
        sizes.set(variant.id, checked.sizes);
      }
      const mismatches = new Map<Variant["id"], number>(VARIANTS.map((variant) => [variant.id, 0]));
      for (let round = 0; round < runs; round++) {
        for (const variant of VARIANTS) {
          const path = runPath(variant, maxPartBytes, false);
          const measured = await measureRequest(worker, path, () => postJson(worker, path) as Promise<HeldRun>);
          const { ms: workerMs, objects } = measured.value;
          samples.get(variant.id)!.push({ workerMs, requestMs: measured.ms, cpuMs: measured.cpuMs });
          if (objects.map((object) => object.bytes).join(",") !== sizes.get(variant.id)) {
            mismatches.set(variant.id, mismatches.get(variant.id)! + 1);
          }
        }
      }
      for (const variant of VARIANTS) {
        const ok = mismatches.get(variant.id) === 0;
        checks.push({
          variant: variant.name,
          ok,
          detail: `all ${runs} timed runs stored parts of the checked run's sizes: ${ok}`,
        });
      }
    } finally {
      await worker.stop();
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }

  const mbOf = (variant: Variant) => inputs[variant.input].length / MB;
  const medianOf = (variant: Variant, key: keyof Sample) =>
    median(samples.get(variant.id)!.map((sample) => sample[key]));
  const byId = (id: string) => VARIANTS.find((variant) => variant.id === id)!;
  const [fused, perNumber, batch, ingest] = ["fused", "per-number", "batch", "ingest"].map(byId) as Variant[];
  const ingestNonCanonical = byId("ingest-non-canonical");
  const fusedMs = medianOf(fused!, "workerMs");
  const fusedCpu = medianOf(fused!, "cpuMs");
  const cpuPerMb = (variant: Variant) => significant(medianOf(variant, "cpuMs") / mbOf(variant));
  const rows = VARIANTS.map((variant) => {
    const workerMs = medianOf(variant, "workerMs");
    const cpuMs = medianOf(variant, "cpuMs");
    const all = samples.get(variant.id)!;
    return {
      variant: variant.name,
      "CPU ms per MB": cpuPerMb(variant),
      "× fused CPU": ratio(cpuMs, fusedCpu),
      "worker ms": significant(workerMs, 4),
      "MB/s": ratio(mbOf(variant), workerMs / 1000),
      "× fused time": ratio(workerMs, fusedMs),
      "CPU ms": Math.round(cpuMs),
      "request ms": significant(medianOf(variant, "requestMs"), 4),
      "samples worker ms": all.map((sample) => Math.round(sample.workerMs)).join(", "),
      "samples CPU ms": all.map((sample) => Math.round(sample.cpuMs)).join(", "),
    };
  });
  /** The ratio of `variant`'s figure to the fused loop's, by the worker's clock and by CPU, for the notes. */
  const toFused = (variant: Variant) =>
    `${ratio(medianOf(variant, "workerMs"), fusedMs)} by the worker's clock, ` +
    `${ratio(medianOf(variant, "cpuMs"), fusedCpu)} by CPU`;
  const perRound = (variant: Variant) =>
    samples
      .get(variant.id)!
      .map((sample, round) => ratio(sample.workerMs, samples.get(fused!.id)!.at(round)!.workerMs))
      .join(", ");
  const clockShare = median(
    VARIANTS.flatMap((variant) => samples.get(variant.id)!.map((sample) => sample.workerMs / sample.requestMs)),
  );
  return {
    id: "pipelines-in-workerd",
    title: `the number pipelines inside workerd over the first ${count.toLocaleString("en")} primes, held in memory`,
    runtime: `workerd (wrangler unstable_dev), no HTTP body; client: node ${process.versions.node} fetch`,
    columns: [
      "variant",
      "CPU ms per MB",
      "× fused CPU",
      "worker ms",
      "MB/s",
      "× fused time",
      "CPU ms",
      "request ms",
      "samples worker ms",
      "samples CPU ms",
    ],
    rows,
    notes: [
      `Input: the first ${count.toLocaleString("en")} primes (${input.length.toLocaleString("en")} bytes), sent ` +
        "once to the bench worker (bench/workers/ingest-worker.ts, POST /held/input), which keeps it in memory, " +
        `with the same numbers written non-canonically (${inputs["non-canonical"].length.toLocaleString("en")} ` +
        "bytes); each timed request (POST /held/run, no body) runs one variant over one of them in 64 KiB chunks " +
        `into a DiscardingStore, parts of at most ${maxPartBytes} bytes. Medians of ${runs} runs, variants ` +
        "interleaved round by round, each request once the workerd process is idle; no forced garbage collection " +
        "(workerd offers no gc()), so a run may pay for the garbage of the run before it.",
      ...VARIANTS.map((variant) => `${variant.name}: ${variant.description}.`),
      "worker ms: performance.now() around the variant, in the worker (MB/s is from it). Deployed Workers advance " +
        "the clock only across I/O (a Spectre mitigation), so this would read about 0 there; the workerd that " +
        "wrangler runs locally reads the system clock on every call, so it advances while JavaScript runs (1 ms " +
        `steps): worker ms was a median ${significant(clockShare * 100)} % of request ms, the request's wall time ` +
        "as Node saw it (an empty POST and its JSON answer over loopback, waiting for the worker included).",
      "CPU ms: user + system time of the workerd process running the worker (wrangler's proxy excluded), from " +
        "/proc/<pid>/stat in 10 ms ticks, from just before the request until the process is idle again (under 5 % " +
        "of a core over 0.5 s). It counts every thread of the process: the isolate's, V8's background garbage " +
        "collection and compilation, workerd's I/O, the request's own HTTP handling and JSON answer. A deployed " +
        "worker is billed and limited by its isolate's CPU time for the request, close to this but not the same.",
      `Per-number ÷ fused (goal ≤ 1.25): ${toFused(perNumber!)}; per round by the clock: ${perRound(perNumber!)}.`,
      `Batch ÷ fused (goal ≤ 1.1): ${toFused(batch!)}; per round by the clock: ${perRound(batch!)}.`,
      `Upload pipeline MB/s ÷ fused MB/s (goal ≥ 0.8): ${ratio(fusedMs, medianOf(ingest!, "workerMs"))} by the ` +
        `worker's clock, ${ratio(fusedCpu, medianOf(ingest!, "cpuMs"))} by CPU.`,
      `Upload pipeline CPU ms per MB: ${cpuPerMb(ingest!)} over canonical input (goal ≤ 2.5), ` +
        `${cpuPerMb(ingestNonCanonical)} over non-canonical input (goal ≤ 4.0); the held body's read floor ` +
        `${cpuPerMb(byId("read"))}, the fused loop ${cpuPerMb(fused!)}.`,
    ],
    speedups: VARIANTS.flatMap((variant) => {
      const ms = medianOf(variant, "workerMs");
      return ms > 0 && fusedMs > 0 ? [{ label: `${variant.name} (× fused)`, value: significant(fusedMs / ms) }] : [];
    }),
    checks,
  };
}

/** Scenario 7. */
export const scenario = defineScenario<PipelinesInWorkerdOptions>({
  id: "pipelines-in-workerd",
  title: "Pipelines in workerd",
  measures:
    "scenario 3's fused loop, per-number and batch pipelines and scenario 4's upload pipeline into a discarding " +
    "store (over canonical and non-canonical input), beside the read of its body alone, run inside workerd by the " +
    "bench worker (bundled by wrangler) over the first 10 M primes it holds in memory, in 64 KiB chunks with no " +
    "HTTP body: the workerd process's CPU ms per MB, the time by the worker's clock, MB/s and the ratios to the " +
    "fused loop; every variant's parts are checked by SHA-256 against the canonical input.",
  why:
    "a deployed worker runs drainpipe in workerd, not Node, and is billed and limited by CPU time: this shows " +
    "whether the per-number and batch pipelines stay within 1.25× and 1.1× of the fused loop there, and whether " +
    "the whole upload pipeline keeps 0.8× of its MB/s, with the network out of the way.",
  options: {
    count: "how many primes the held input holds (default 10,000,000)",
    runs: "timed runs per variant, interleaved (default 5)",
    maxPartBytes: "part size limit in bytes (default 10 MiB, the worker's default)",
  },
  quick: { count: 20_000, runs: 1, maxPartBytes: 16 * 1024 },
  run: async (options) => [await runPipelinesInWorkerd(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
