/**
 * Scenario 1: per-chunk pipes of small value chunks (`pipeTo`, a reader loop, one `TransformStream`, `for
 * await`, and the draining shapes for implementations with the extension), for every implementation of
 * `bench/implementations/registry.ts`, in Node and inside workerd, then in Bun and Deno. In Node and workerd the
 * benchmarks are `01-chunk-pipes.bench.ts`, run by `vitest bench`; vitest does not run on Bun or Deno, so there
 * the project's binaries run the standalone runner `bench/scenarios/01-chunk-pipes.runtimes.ts`, which prints its
 * samples as JSON. This file starts both and builds the tables from what they leave (chunks per sample: see
 * `chunkCount`).
 *
 * Run alone: `npx node bench/scenarios/01-chunk-pipes.ts [--quick]`.
 *
 * @module
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { median } from "simple-statistics";
import { bundleDrainpipeStreams } from "../../tools/bundled-drainpipe.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import {
  BUNDLE_NOTE,
  implementationsIn,
  medianMs,
  PROJECTS,
  RUNTIMES,
  runtimeLabel,
  runVitestBench,
  type VitestRuntime,
} from "../harness/vitest-bench.ts";
import { IMPLEMENTATIONS, implementationsFor } from "../implementations/registry.ts";
import type { Runtime } from "../implementations/streams-implementation.ts";
import { chunkCount, expectedTally, type Sampling, sampling, shapesFor } from "../workloads/chunk-pipe-shapes.ts";
import { chunkPipeTable, shapeComparisons } from "../workloads/chunk-pipe-table.ts";
import type { RuntimeReport } from "./01-chunk-pipes.runtimes.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** Chunks per run of the in-process check. */
const CHECK_CHUNKS = 2000;

/** The standalone runner Bun and Deno execute. */
const RUNNER = resolve(ROOT, "bench/scenarios/01-chunk-pipes.runtimes.ts");

/** How long one runtime's standalone run may take: 10 minutes. */
const RUNNER_TIMEOUT_MS = 600_000;

/** The runtimes scenario 1 runs with the standalone runner, in report order: the runtimes vitest does not run on. */
const STANDALONE_RUNTIMES = ["bun", "deno"] as const satisfies readonly Exclude<Runtime, VitestRuntime>[];

/** A runtime of {@link STANDALONE_RUNTIMES}. */
type StandaloneRuntime = (typeof STANDALONE_RUNTIMES)[number];

/**
 * The arguments that start the runner on each standalone runtime, drainpipe loaded from `bundle`. Deno gets the
 * one permission the runner needs: reading the bundle (its own modules are imported statically).
 */
const RUNNER_ARGS: Record<StandaloneRuntime, (bundle: string) => string[]> = {
  bun: (bundle) => [RUNNER, "--bundle", bundle],
  deno: (bundle) => ["run", "--no-prompt", `--allow-read=${bundle}`, RUNNER, "--bundle", bundle],
};

/** How drainpipe is loaded in the Bun and Deno tables. */
const STANDALONE_BUNDLE_NOTE =
  "drainpipe runs from the same esbuild bundle of src/streams as in the node and workerd tables " +
  "(tools/bundled-drainpipe.ts), which the runner imports; native is the runtime's global ReadableStream, " +
  "WritableStream and TransformStream.";

/** One runtime's measurements, as its table needs them. */
interface ChunkPipesRun {
  /** Where the samples ran: Node under `vitest bench`, Bun or Deno with the standalone runner. */
  runtime: Runtime;
  /** The runtime column: name, version and how it ran. */
  label: string;
  /** Chunks per sample. */
  count: number;
  /** The median sample time in ms of `implementation` in the comparison of `shape`, or `undefined`. */
  medianMs(shape: string, implementation: string): number | undefined;
  /** How the samples were taken, the first note. */
  method: string;
  /** The notes after the ratio's. */
  notes: string[];
  /** The output checks of the run. */
  checks: OutputCheck[];
}

/** What one sample is and how many were taken, for the notes. */
function sampleNote(count: number, { samples, warmups }: Sampling): string {
  return (
    `one sample moves ${count.toLocaleString("en")} numbers from a pull source (one enqueue per pull) to a ` +
    `summing sink; ${samples === 1 ? "one sample" : `median of ${samples} samples`} after ${warmups} warm-up` +
    `${warmups === 1 ? "" : "s"}.`
  );
}

/** Scenario 1's table for one runtime: chunks/s per shape and implementation, and each one's ratio to native. */
function chunkPipesResult(run: ChunkPipesRun): ScenarioResult {
  const { runtime, count } = run;
  const implementations = implementationsIn(runtime);
  const { columns, rows, speedups } = chunkPipeTable(
    implementations,
    shapeComparisons(implementations),
    (shape, entry) => {
      const ms = run.medianMs(shape.name, entry.implementation.name);
      return ms === undefined ? undefined : count / (ms / 1000);
    },
  );
  return {
    id: `chunk-pipes-${runtime}`,
    title: `per-chunk pipes of ${count.toLocaleString("en")} small value chunks (${runtime})`,
    runtime: run.label,
    columns,
    rows,
    notes: [
      run.method,
      "× native = native's median time ÷ the implementation's (above 1: faster than the runtime's own streams).",
      ...run.notes,
    ],
    speedups,
    checks: run.checks,
  };
}

/** What the vitest run of `runtime` left (`passed`: whether vitest, whose tests check every shape, passed). */
function vitestRun(runtime: VitestRuntime, quick: boolean, passed: boolean): ChunkPipesRun {
  const count = chunkCount(runtime, quick);
  const expected = expectedTally(count);
  return {
    runtime,
    label: runtimeLabel(runtime),
    count,
    medianMs: (shape, implementation) => medianMs(runtime, "chunk-pipes", shape, implementation),
    method:
      `vitest bench fixture (project ${PROJECTS[runtime]}), each implementation in a vitest run and process of its ` +
      `own: ${sampleNote(count, sampling(quick))}`,
    notes: [BUNDLE_NOTE],
    checks: [
      {
        variant: `all shapes (${runtime})`,
        ok: passed,
        detail:
          `every sample's count and sum checked (expected ${expected.count} chunks summing to ${expected.sum}), ` +
          "and those of 1000 chunks with expect before benching",
      },
    ],
  };
}

/** The project's binary of `runtime`. */
function binaryOf(runtime: StandaloneRuntime): string {
  return resolve(ROOT, "node_modules/.bin", runtime);
}

/**
 * Runs the standalone runner on `runtime` with drainpipe from `bundle` (scenario 1's quick sizes when `quick`),
 * once per implementation, each in a process of its own, and joins their reports.
 *
 * @throws {Error} when a run printed no report (it did not start, or failed before the end).
 */
async function runStandalone(runtime: StandaloneRuntime, bundle: string, quick: boolean): Promise<RuntimeReport> {
  const reports: RuntimeReport[] = [];
  for (const { name } of implementationsFor(runtime)) {
    reports.push(await runStandaloneProcess(runtime, bundle, quick, name));
  }
  return {
    userAgent: reports[0]!.userAgent,
    count: reports[0]!.count,
    benchmarks: reports.flatMap(({ benchmarks }) => benchmarks),
    failures: reports.flatMap(({ failures }) => failures),
  };
}

/**
 * Runs the standalone runner on `runtime` for `implementation` alone.
 *
 * @throws {Error} when the runner printed no report.
 */
function runStandaloneProcess(
  runtime: StandaloneRuntime,
  bundle: string,
  quick: boolean,
  implementation: string,
): Promise<RuntimeReport> {
  const args = [...RUNNER_ARGS[runtime](bundle), "--implementation", implementation, ...(quick ? ["--quick"] : [])];
  const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  return new Promise((resolve, reject) => {
    execFile(binaryOf(runtime), args, { cwd: ROOT, env, timeout: RUNNER_TIMEOUT_MS }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout) as RuntimeReport);
      } catch {
        const reason = (stderr.trim() || error?.message || "it printed no report").replace(/\s+/g, " ");
        reject(new Error(`Cannot run scenario 1 on ${runtime} (${implementation}): ${reason.slice(0, 2000)}`));
      }
    });
  });
}

/** The output check of a standalone run: every run's count and sum, warm-ups included. */
function standaloneCheck(runtime: StandaloneRuntime, report: RuntimeReport): OutputCheck {
  const expected = expectedTally(report.count);
  return {
    variant: `all shapes (${runtime})`,
    ok: report.failures.length === 0,
    detail:
      report.failures.length === 0
        ? `every run's count and sum checked, warm-ups included (expected ${expected.count} chunks summing to ` +
          `${expected.sum})`
        : report.failures.join("; "),
  };
}

/**
 * Measures scenario 1 in `runtime` with the standalone runner, drainpipe from `bundle`. When the runtime's binary
 * is missing or the runner fails, the table says so in its notes (and a failed run in a failed check).
 */
async function standaloneRun(runtime: StandaloneRuntime, bundle: string, quick: boolean): Promise<ChunkPipesRun> {
  const count = chunkCount(runtime, quick);
  const method =
    `standalone runner (bench/scenarios/01-chunk-pipes.runtimes.ts) run by node_modules/.bin/${runtime}, once ` +
    "per implementation, each in a process of its own: " +
    sampleNote(count, sampling(quick));
  const unmeasured = { runtime, count, medianMs: () => undefined, method };
  if (!existsSync(binaryOf(runtime))) {
    const missing = `Not measured: ${runtime} is not installed (no node_modules/.bin/${runtime}).`;
    return { ...unmeasured, label: `${runtime} (not installed)`, notes: [missing], checks: [] };
  }
  let report: RuntimeReport;
  try {
    report = await runStandalone(runtime, bundle, quick);
  } catch (error) {
    const detail = (error as Error).message;
    const checks = [{ variant: `all shapes (${runtime})`, ok: false, detail }];
    return { ...unmeasured, label: runtime, notes: [detail], checks };
  }
  return {
    runtime,
    label: `${report.userAgent.replace("/", " ").toLowerCase()} (standalone runner)`,
    count,
    medianMs(shape, implementation) {
      const benchmark = report.benchmarks.find(
        (candidate) => candidate.shape === shape && candidate.implementation === implementation,
      );
      return benchmark === undefined || benchmark.samplesMs.length === 0 ? undefined : median(benchmark.samplesMs);
    },
    method,
    notes: [STANDALONE_BUNDLE_NOTE],
    checks: [standaloneCheck(runtime, report)],
  };
}

/** Scenario 1. */
export const scenario = defineScenario({
  id: "chunk-pipes",
  title: "Per-chunk pipes",
  measures:
    "chunks/s of small value chunks moved one at a time from a pull source to a summing sink in the common " +
    "shapes of stream code (pipeTo, a reader loop, a TransformStream, for await, and readMany/writev where an " +
    "implementation has the draining extension), for every stream implementation, in Node and inside workerd " +
    "(vitest bench, `01-chunk-pipes.bench.ts`), and for the runtime's own streams and drainpipe in Bun and Deno " +
    "(the standalone runner `bench/scenarios/01-chunk-pipes.runtimes.ts`).",
  why:
    "per-chunk overhead is what drainpipe's streams exist to cut; tiny chunks and no work per chunk leave " +
    "nothing else to measure, and the ratio to the runtime's own streams shows where drainpipe stands.",
  options: {},
  quick: {},
  async run(_options, { quick }) {
    const passed = runVitestBench("bench/scenarios/01-chunk-pipes.bench.ts", "chunk-pipes", quick, IMPLEMENTATIONS);
    const results = RUNTIMES.map((runtime) => chunkPipesResult(vitestRun(runtime, quick, passed)));
    const bundle = await bundleDrainpipeStreams();
    for (const runtime of STANDALONE_RUNTIMES) {
      results.push(chunkPipesResult(await standaloneRun(runtime, bundle, quick)));
    }
    return results;
  },
  /**
   * Every implementation and shape in this process, then the standalone runner's quick run on Bun and Deno (a runtime
   * whose binary is missing is left out, as `test/runtimes/` skips it).
   */
  async check() {
    const checks: OutputCheck[] = [];
    for (const implementation of implementationsFor("node")) {
      for (const shape of shapesFor(implementation)) {
        const tally = await shape.run(implementation, CHECK_CHUNKS);
        const expected = expectedTally(CHECK_CHUNKS);
        checks.push({
          variant: `${implementation.name}, ${shape.name}`,
          ok: tally.count === expected.count && tally.sum === expected.sum,
          detail: `${tally.count} chunks summing to ${tally.sum} (expected ${expected.count}, ${expected.sum})`,
        });
      }
    }
    const bundle = await bundleDrainpipeStreams();
    for (const runtime of STANDALONE_RUNTIMES) {
      checks.push(...(await standaloneRun(runtime, bundle, true)).checks);
    }
    return checks;
  },
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
