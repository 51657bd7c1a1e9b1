/**
 * Scenario 8: scenario 1's per-chunk pipes (`bench/workloads/chunk-pipe-shapes.ts`) inside a worker that wrangler
 * bundles as it bundles a deployment (`bench/workers/chunk-pipe-worker.ts`, drainpipe imported from
 * `src/streams/index.ts`), started with `unstable_dev`, one worker per workerd implementation of
 * `bench/implementations/registry.ts` (so no call site of the shapes is shared between implementations). Scenario
 * 1 measures the same shapes inside workerd through the vitest pool.
 *
 * Each request runs one shape once with one implementation and answers the tally, which is checked. Timing is
 * taken outside the worker: a row's time is the median wall time of the request moving N chunks minus the median
 * of the same request moving 1 chunk, requests of every row interleaved round by round after a warm-up.
 *
 * Run alone: `npx node bench/scenarios/08-chunk-pipes-in-worker.ts [--count N] [--peerCount N] [--nativeCount N]
 * [--runs N]`
 * (`--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { resolve } from "node:path";
import { median } from "simple-statistics";
import { quietWrangler } from "../../src/cli/embedded-worker.ts";
import { describeMachine } from "../harness/machine.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant, timed } from "../harness/stats.ts";
import { implementationsFor } from "../implementations/registry.ts";
import {
  DRAINPIPE,
  DRAINPIPE_BATCH,
  NATIVE,
  type StreamsImplementation,
} from "../implementations/streams-implementation.ts";
import type { ChunkPipeAnswer } from "../workers/chunk-pipe-worker.ts";
import { expectedTally, type PipeShape, type ShapeEntry } from "../workloads/chunk-pipe-shapes.ts";
import { chunkPipeTable, shapeComparisons } from "../workloads/chunk-pipe-table.ts";

/** Options of {@linkcode runChunkPipesInWorker}. */
export interface ChunkPipesInWorkerOptions {
  /** Chunks per timed request of drainpipe (default 3,000,000: a few hundred ms at the rates it reaches). */
  count?: number;
  /** Chunks per timed request of the other JavaScript implementations (default 300,000, or `count` if smaller). */
  peerCount?: number;
  /** Chunks per timed request of native streams (default 100,000, or `count` when smaller). */
  nativeCount?: number;
  /** Timed rounds, every row's requests interleaved (default 5). */
  runs?: number;
}

const WORKERS = resolve(import.meta.dirname, "../workers");

/** One kind of request: an implementation running a shape, with what its requests took and answered. */
interface Measurement {
  implementation: StreamsImplementation;
  shape: PipeShape;
  /** Chunks per timed request. */
  count: number;
  /** Wall times of the 1-chunk requests, ms. */
  baseMs: number[];
  /** Wall times of the `count`-chunk requests, ms. */
  fullMs: number[];
  /** How far the worker's own clock moved during the timed `count`-chunk requests, summed, ms. */
  clockMs: number;
  /** Answers whose tally was wrong. */
  wrong: string[];
}

/**
 * The worker running `implementation` (a workerd implementation's name), started by wrangler's `unstable_dev` with
 * its own configuration; its inspector listens on `inspectorPort` when given (`bench/profile.ts` profiles the
 * worker through it).
 */
export async function startChunkPipeWorker(
  implementation: string,
  inspectorPort: number | undefined = undefined,
): Promise<{ url: string; stop: () => Promise<void> }> {
  quietWrangler();
  const { unstable_dev } = await import("wrangler");
  const worker = await unstable_dev(resolve(WORKERS, "chunk-pipe-worker.ts"), {
    config: resolve(WORKERS, "chunk-pipe-worker.jsonc"),
    vars: { IMPLEMENTATION: implementation },
    ...(inspectorPort === undefined ? {} : { inspectorPort }),
    persist: false,
    logLevel: "warn",
    experimental: { disableExperimentalWarning: true },
  });
  return { url: `http://${worker.address}:${worker.port}`, stop: () => worker.stop() };
}

/**
 * One request moving `count` chunks, timed from before the fetch to the end of the answer's body; a wrong tally
 * is recorded in `measurement.wrong`.
 *
 * @throws {Error} when the worker refuses the request.
 */
async function request(
  urls: ReadonlyMap<string, string>,
  measurement: Measurement,
  count: number,
): Promise<{ ms: number; clockMs: number }> {
  const url = urls.get(measurement.implementation.name)!;
  const query = new URLSearchParams({ shape: measurement.shape.name, count: String(count) });
  const { ms, value } = await timed(async () => {
    const response = await fetch(`${url}/run?${query}`);
    return { status: response.status, text: await response.text() };
  });
  if (value.status !== 200) {
    throw new Error(
      `Cannot run ${query} on ${measurement.implementation.name}: the worker answered ${value.status}: ` +
        value.text.slice(0, 500),
    );
  }
  const answer = JSON.parse(value.text) as ChunkPipeAnswer;
  const expected = expectedTally(count);
  if (answer.count !== expected.count || answer.sum !== expected.sum) {
    measurement.wrong.push(`${answer.count} chunks summing to ${answer.sum} of ${expected.count}, ${expected.sum}`);
  }
  return { ms, clockMs: answer.clockMs };
}

/** Chunks per second of `measurement`: the chunks its timed request moves beyond the 1-chunk one, per second. */
function chunksPerSecond(measurement: Measurement): number | undefined {
  const ms = median(measurement.fullMs) - median(measurement.baseMs);
  return ms > 0 ? (measurement.count - 1) / (ms / 1000) : undefined;
}

/**
 * What the notes say about the noise: the widest spread of a row's N-chunk request times, relative to its median.
 */
function spreadNote(measurements: readonly Measurement[]): string {
  const spreads = measurements.map(({ implementation, shape, fullMs }) => ({
    name: `${implementation.name}, ${shape.name}`,
    spread: (Math.max(...fullMs) - Math.min(...fullMs)) / median(fullMs),
  }));
  const widest = spreads.reduce((a, b) => (b.spread > a.spread ? b : a));
  const typical = median(spreads.map(({ spread }) => spread));
  return (
    `Spread of the N-chunk request times (max − min) ÷ median: ${significant(typical * 100, 2)} % for the ` +
    `median row, ${significant(widest.spread * 100, 2)} % at most (${widest.name}).`
  );
}

/**
 * What the notes say about the worker's own clock: how far it moved during the timed N-chunk requests
 * (`insideMs`) against their wall time outside (`outsideMs`).
 */
function clockNote(insideMs: number, outsideMs: number): string {
  const moved =
    `Inside the worker, performance.now() moved ${Math.round(insideMs)} ms during the timed N-chunk requests, ` +
    `whose wall time outside was ${Math.round(outsideMs)} ms`;
  return insideMs >= outsideMs / 2
    ? `${moved}: this local workerd (run by wrangler dev, with an inspector) advances its clocks during pure CPU ` +
        "work, in whole ms; deployed Workers freeze Date.now() and performance.now() between I/O (a Spectre " +
        "mitigation), so the numbers above are timed outside the worker, which works in both."
    : `${moved}: the worker's clocks stood still during the work, as workerd's do between I/O (a Spectre ` +
        "mitigation), so only a measure taken outside the worker times it.";
}

/** Chunks per timed request of each kind of implementation, sized so every row's request takes long enough. */
interface Counts {
  /** drainpipe's. */
  count: number;
  /** The other JavaScript implementations'. */
  peerCount: number;
  /** Native streams'. */
  nativeCount: number;
}

/**
 * The requests `comparisons` need: one measurement per implementation and shape it runs (native's stand-in shapes
 * are standard shapes it runs anyway), each moving its kind's number of chunks.
 */
function measurementsFor(comparisons: readonly { entries: readonly ShapeEntry[] }[], counts: Counts): Measurement[] {
  const measurements: Measurement[] = [];
  for (const { implementation, runs: shape } of comparisons.flatMap(({ entries }) => entries)) {
    if (measurements.some((other) => other.implementation === implementation && other.shape === shape)) continue;
    const chunks =
      implementation.name === NATIVE
        ? counts.nativeCount
        : [DRAINPIPE, DRAINPIPE_BATCH].includes(implementation.name)
          ? counts.count
          : counts.peerCount;
    measurements.push({ implementation, shape, count: chunks, baseMs: [], fullMs: [], clockMs: 0, wrong: [] });
  }
  return measurements;
}

/** Runs scenario 8: starts the worker, warms every row up, runs the timed rounds, stops the worker. */
async function runChunkPipesInWorker(options: ChunkPipesInWorkerOptions): Promise<ScenarioResult> {
  const count = options.count ?? 3_000_000;
  const peerCount = options.peerCount ?? Math.min(count, 300_000);
  const nativeCount = options.nativeCount ?? Math.min(count, 100_000);
  const runs = options.runs ?? 5;
  const implementations = implementationsFor("workerd");
  const comparisons = shapeComparisons(implementations);
  const measurements = measurementsFor(comparisons, { count, peerCount, nativeCount });
  const rateOf = ({ implementation, runs: shape }: ShapeEntry): number | undefined =>
    chunksPerSecond(measurements.find((other) => other.implementation === implementation && other.shape === shape)!);

  const workers = await Promise.all(
    implementations.map(async ({ name }) => ({ name, ...(await startChunkPipeWorker(name)) })),
  );
  const urls = new Map(workers.map(({ name, url }) => [name, url]));
  try {
    for (const measurement of measurements) await request(urls, measurement, measurement.count);
    for (let round = 0; round < runs; round++) {
      for (const measurement of measurements) {
        measurement.baseMs.push((await request(urls, measurement, 1)).ms);
        const full = await request(urls, measurement, measurement.count);
        measurement.fullMs.push(full.ms);
        measurement.clockMs += full.clockMs;
      }
    }
  } finally {
    await Promise.all(workers.map(({ stop }) => stop()));
  }

  const { columns, rows, speedups } = chunkPipeTable(implementations, comparisons, (_shape, entry) => rateOf(entry));
  const checks: OutputCheck[] = measurements.map(({ implementation, shape, count: chunks, wrong }) => ({
    variant: `${implementation.name}, ${shape.name}`,
    ok: wrong.length === 0,
    detail:
      wrong.length === 0
        ? `count and sum right in all ${2 * runs + 1} answers (${chunks} chunks, and 1)`
        : `wrong tally: ${wrong[0]}`,
  }));
  const insideMs = measurements.reduce((sum, measurement) => sum + measurement.clockMs, 0);
  const outsideMs = measurements.reduce((sum, measurement) => sum + measurement.fullMs.reduce((a, b) => a + b, 0), 0);
  const machine = describeMachine();
  const workerd = `workerd ${machine.workerd} (wrangler ${machine.wrangler} unstable_dev)`;
  return {
    id: "chunk-pipes-in-worker",
    title:
      `per-chunk pipes in a worker bundled by wrangler: ${count.toLocaleString("en")} small value chunks per ` +
      `request of drainpipe (other implementations: ${peerCount.toLocaleString("en")}, native: ` +
      `${nativeCount.toLocaleString("en")})`,
    runtime: `${workerd}, client: node ${machine.node} fetch`,
    columns,
    rows,
    notes: [
      "The worker (bench/workers/chunk-pipe-worker.ts) is bundled by wrangler as a deployment is, drainpipe " +
        "imported from src/streams/index.ts, one worker (a workerd process) per implementation so that no call " +
        "site of the shapes is shared between implementations; each request runs one shape of scenario 1 once " +
        "(a pull source enqueueing one number per pull, a summing sink) and answers the tally, which is checked. " +
        "Scenario 1's " +
        "workerd table measures the same shapes through the vitest pool instead.",
      `Timed outside the worker: chunks/s = (N − 1) ÷ (median wall time of the request moving N chunks − median ` +
        `of the same request moving 1 chunk), Node's fetch over loopback through wrangler's proxy; ${runs} ` +
        `round${runs === 1 ? "" : "s"}, every row's two requests interleaved, after one untimed N-chunk request ` +
        `per row. N is ${count.toLocaleString("en")} for drainpipe, ${peerCount.toLocaleString("en")} for the ` +
        `other JavaScript implementations and ${nativeCount.toLocaleString("en")} for native streams (about 100 K ` +
        "chunks/s), so that every row's request takes a few hundred ms or more and a ms of noise stays small.",
      "Caveats: wall time counts whatever else the machine runs and the worker's GC pauses; at 20 M chunks/s " +
        `${count.toLocaleString("en")} chunks take ${significant(count / 20_000)} ms, so 1 ms of noise is ` +
        `${significant(2_000_000 / count, 2)} % of such a row's time. The workerd process's CPU time is no ` +
        "better measure: /proc counts it in 10 ms ticks, and it includes V8's background compiler and GC threads.",
      spreadNote(measurements),
      clockNote(insideMs, outsideMs),
      "× native = the implementation's chunks/s ÷ native's (above 1: faster than workerd's own streams); for the " +
        "extension shapes native runs the standard shape named in brackets.",
    ],
    speedups,
    checks,
  };
}

/** Scenario 8. */
export const scenario = defineScenario<ChunkPipesInWorkerOptions>({
  id: "chunk-pipes-in-worker",
  title: "Per-chunk pipes in a bundled worker",
  measures:
    "chunks/s of scenario 1's per-chunk pipe shapes run inside a worker that wrangler bundles as it bundles a " +
    "deployment (drainpipe from src/streams), for every stream implementation that runs in workerd, timed from " +
    "outside as the wall time of a request moving N chunks minus that of the same request moving one.",
  why:
    "the goal for workerd (≥ 100× native on pipeTo and TransformStream + pipeTo, ≥ 20 M chunks/s on the " +
    "extensions) is about drainpipe as deployed: bundled by wrangler, not loaded through vitest's pool.",
  options: {
    count: "chunks per timed request of drainpipe (default 3,000,000)",
    peerCount:
      "chunks per timed request of the other JavaScript implementations (default 300,000, or count if smaller)",
    nativeCount: "chunks per timed request of native streams (default 100,000, or count when smaller)",
    runs: "timed rounds, every row's requests interleaved (default 5)",
  },
  quick: { count: 2000, runs: 1 },
  run: async (options) => [await runChunkPipesInWorker(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
