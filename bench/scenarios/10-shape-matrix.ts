/**
 * Scenario 10: the shape matrix. The ordinary shapes of stream code (`bench/workloads/matrix-shapes.ts`: sources
 * enqueueing one and many chunks per pull, reader loops, `for await`, `readMany`, `ReadableStream.from`, `pipeTo`,
 * transform chains, tee, writer loops, byte streams and BYOB reads, many short streams, large chunks, cancel and
 * abort, value and byte chunks), each written once against a streams implementation's classes, measured for every
 * implementation in a process of its own (no call site shared between implementations) in Node 20, 24 and 26, Bun
 * and Deno (`10-shape-matrix.processes.ts`), and in a worker bundled by wrangler per implementation
 * (`10-shape-matrix.workerd.ts`). Rounds are interleaved (round r starts every row once before round r + 1);
 * each cell is the median over rounds; every run's output is checked.
 *
 * Run alone: `npx node bench/scenarios/10-shape-matrix.ts [--count N] [--rounds N] [--runs N]`
 * (`--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { ScenarioResult } from "../harness/scenario-result.ts";
import {
  buildBundles,
  installed,
  PROCESS_RUNTIMES,
  type ProcessRuntime,
  runProcess,
  versionOf,
} from "./10-shape-matrix.processes.ts";
import { type MatrixMeasurement, matrixResult, newMeasurement, recordShape } from "./10-shape-matrix.table.ts";
import { measureInWorkerd } from "./10-shape-matrix.workerd.ts";

/**
 * Chunks per run of most shapes. Runs of 50,000 chunks (10 to 20 ms for most shapes) measured how soon an
 * implementation's code got compiled as much as how fast it then ran: one shape's drainpipe ÷ native moved by up to
 * 40 % between identical processes, most for the first shapes of a process, and drainpipe's short-lived streams ran
 * at 0.45 to 0.64× native after two or three timed runs but at 1.85× after ten (Node 26). At 200,000 (the issue's
 * own table used 300,000) most shapes' ratios stayed within some 10 % from process to process.
 */
const DEFAULT_COUNT = 200_000;

/** Options of scenario 10. */
export interface ShapeMatrixOptions {
  /** The matrix's size: chunks per run of most shapes (default {@link DEFAULT_COUNT}). */
  count?: number;
  /** Rounds: processes per row, interleaved (default 3). */
  rounds?: number;
  /** Timed runs per shape in each process, after one untimed (default 2; the best counts). */
  runs?: number;
}

/** The binary of `runtime`, or why it cannot run. */
function binaryOf(runtime: ProcessRuntime): { binary?: string; missing?: string } {
  try {
    const binary = runtime.binary();
    return installed(binary) ? { binary } : { missing: `${binary} is not installed` };
  } catch (error) {
    return { missing: error instanceof Error ? error.message : String(error) };
  }
}

/** Measures every runtime of `PROCESS_RUNTIMES`, rounds interleaved over its rows. */
async function measureProcesses(count: number, rounds: number, runs: number): Promise<MatrixMeasurement[]> {
  const bundles = await buildBundles();
  const measurements: MatrixMeasurement[] = [];
  for (const runtime of PROCESS_RUNTIMES) {
    const { binary, missing } = binaryOf(runtime);
    const method =
      `One process per row and round (${rounds} round${rounds === 1 ? "" : "s"}, rows interleaved), each loading ` +
      "only its own implementation (drainpipe from the esbuild bundle of src/streams that scenario 1 measures) " +
      `and running every shape once untimed, then ${runs} timed run${runs === 1 ? "" : "s"}, the best kept; a ` +
      "cell is the median over rounds of those bests. Every run's tally was checked.";
    if (binary === undefined) {
      const measurement = newMeasurement(runtime.id, `${runtime.id} (not measured)`, count, runtime.rows, [method]);
      measurement.notes.push(`Not measured: ${missing}.`);
      measurements.push(measurement);
      continue;
    }
    const label = `${runtime.id.replace(/\d+$/, "")} ${versionOf(binary)}`;
    const measurement = newMeasurement(runtime.id, label, count, runtime.rows, [method]);
    for (let round = 0; round < rounds; round++) {
      for (const row of runtime.rows) {
        try {
          const report = await runProcess(runtime, binary, row, bundles, { count, runs });
          for (const shape of report.shapes) recordShape(measurement, row, shape, shape.bestMs);
        } catch (error) {
          measurement.failures.push(`process ${(error as Error).message}`);
        }
      }
    }
    measurements.push(measurement);
  }
  return measurements;
}

/** Scenario 10. */
export const scenario = defineScenario<ShapeMatrixOptions>({
  id: "shape-matrix",
  title: "Shape matrix",
  measures:
    "chunks/s of some thirty ordinary shapes of stream code (sources, consumers, pipes, transform chains, tee, " +
    "writers, byte streams, many short streams, cancel and abort, value and byte chunks) for every streams " +
    "implementation, each loaded alone in a process of its own, in Node 20, 24 and 26, Bun, Deno and a " +
    "wrangler-bundled worker; with drainpipe's batch API and node:stream/iter (Node 26) on the shapes they express.",
  why:
    "one fixture is not how users write streams: drainpipe must be at least as fast as the runtime's own streams " +
    "and experimental-fast-webstreams on every shape, everywhere (issue 23), and this matrix shows where it is not.",
  options: {
    count: "chunks per run of most shapes (default 200,000)",
    rounds: "processes per row, interleaved (default 3)",
    runs: "timed runs per shape in each process, the best counts (default 2)",
  },
  quick: { count: 200, rounds: 1, runs: 1 },
  async run(options, { quick }): Promise<ScenarioResult[]> {
    const count = options.count ?? DEFAULT_COUNT;
    const rounds = options.rounds ?? 3;
    const runs = options.runs ?? 2;
    const measurements = await measureProcesses(count, rounds, runs);
    // A quick run skips workerd's untimed pass: it checks outputs, and each pass costs some 100 requests.
    measurements.push(await measureInWorkerd(count, rounds, runs, !quick));
    return measurements.map(matrixResult);
  },
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
