/**
 * Scenario 1 in Bun and Deno, where vitest does not run: a standalone program that times every shape of
 * `chunk-pipe-shapes.ts` with the runtime's own streams and drainpipe's two rows, drainpipe loaded from the esbuild
 * bundle the vitest benchmarks use (`tools/bundled-drainpipe.ts`), checks the count and sum of every run (warm-ups
 * included) and prints one {@linkcode RuntimeReport} as JSON. `01-chunk-pipes.ts` builds the bundle, starts this
 * file with the project's Bun and Deno once per implementation (`--implementation`, so no call site of the shapes
 * is shared between implementations) and makes their tables.
 *
 * Run alone (`bench/scenarios/01-chunk-pipes.ts` writes the bundle to `bench/.cache/drainpipe-streams.js`), with
 * scenario 1's sizes (`chunkCount`, `sampling`; `--quick` for the quick ones):
 * `node_modules/.bin/bun bench/scenarios/01-chunk-pipes.runtimes.ts --bundle <bundle> [--implementation <name>]
 * [--quick]`, or `node_modules/.bin/deno run --allow-read=<bundle> bench/scenarios/01-chunk-pipes.runtimes.ts
 * --bundle <bundle> [--implementation <name>] [--quick]` (reading the bundle is the only permission Deno needs;
 * without `--implementation`, every implementation runs in this one process). Exits with 1 when a run failed.
 *
 * @module
 */
import { resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type * as drainpipe from "../../src/streams/index.ts";
import { timed } from "../harness/stats.ts";
import {
  classesOf,
  currentRuntime,
  drainpipeImplementations,
  NATIVE,
  type StreamsImplementation,
} from "../implementations/streams-implementation.ts";
import {
  chunkCount,
  expectedTally,
  PIPE_SHAPES,
  type Sampling,
  type ShapeEntry,
  sampling,
  shapeEntries,
} from "../workloads/chunk-pipe-shapes.ts";

/** The samples of one benchmark: one implementation in one shape's comparison. */
export interface RuntimeBenchmark {
  /** The shape compared (for native in an extension shape's comparison, it ran the stand-in). */
  shape: string;
  /** The name of the streams implementation that ran (`native`, or one of drainpipe's two rows). */
  implementation: string;
  /** Every sample's time in ms; empty when a run failed. */
  samplesMs: number[];
}

/** What the runner prints: every benchmark of one runtime, and every run that failed. */
export interface RuntimeReport {
  /** The runtime's `navigator.userAgent`, e.g. "Bun/1.4.5". */
  userAgent: string;
  /** Chunks per run. */
  count: number;
  /** Every benchmark, in the order they ran. */
  benchmarks: RuntimeBenchmark[];
  /** Why a benchmark stopped, one sentence each: a run whose count or sum was wrong, or one that threw. */
  failures: string[];
}

/**
 * Times `entry` moving `count` chunks: `warmups` untimed runs, then `samples` timed ones, every tally checked.
 *
 * @throws {Error} when a run's count or sum is not what `count` chunks give.
 */
async function samplesOf(entry: ShapeEntry, count: number, { samples, warmups }: Sampling): Promise<number[]> {
  const expected = expectedTally(count);
  const times: number[] = [];
  for (let run = 0; run < warmups + samples; run++) {
    const { ms, value: tally } = await timed(() => entry.runs.run(entry.implementation, count));
    if (tally.count !== expected.count || tally.sum !== expected.sum)
      throw new Error(
        `Cannot trust the run: ${tally.count} chunks summing to ${tally.sum} arrived ` +
          `(expected ${expected.count} summing to ${expected.sum})`,
      );
    if (run >= warmups) times.push(ms);
  }
  return times;
}

/**
 * Runs every shape's comparison with `implementations` (native first) in this runtime, as
 * `01-chunk-pipes.bench.ts` does under vitest; with `only`, only that implementation's part of each comparison.
 *
 * @example
 * ```ts
 * const report = await runChunkPipes(implementations, 20_000, { samples: 1, warmups: 1 }, "drainpipe");
 * ```
 */
export async function runChunkPipes(
  implementations: readonly StreamsImplementation[],
  count: number,
  sampling: Sampling,
  only: string | undefined = undefined,
): Promise<RuntimeReport> {
  const report: RuntimeReport = { userAgent: navigator.userAgent, count, benchmarks: [], failures: [] };
  for (const shape of PIPE_SHAPES) {
    const entries = shapeEntries(shape, implementations, NATIVE);
    if (entries.length < 2) continue;
    for (const entry of entries) {
      if (only !== undefined && entry.implementation.name !== only) continue;
      const benchmark = { shape: shape.name, implementation: entry.implementation.name, samplesMs: [] as number[] };
      try {
        benchmark.samplesMs = await samplesOf(entry, count, sampling);
      } catch (error) {
        report.failures.push(`${shape.name}, ${entry.implementation.name}: ${(error as Error).message}`);
      }
      report.benchmarks.push(benchmark);
    }
  }
  return report;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      bundle: { type: "string" },
      implementation: { type: "string" },
      quick: { type: "boolean", default: false },
    },
  });
  if (values.bundle === undefined)
    throw new Error("Cannot run the chunk pipes: --bundle <drainpipe bundle> is missing");
  const streams = (await import(pathToFileURL(resolve(values.bundle)).href)) as typeof drainpipe;
  const runtime = currentRuntime();
  const implementations = [
    { name: NATIVE, runtimes: [runtime], ...classesOf(globalThis) },
    ...drainpipeImplementations(streams, [runtime]),
  ];
  if (values.implementation !== undefined && !implementations.some(({ name }) => name === values.implementation))
    throw new Error(`Cannot run the chunk pipes: no implementation "${values.implementation}" in ${runtime}`);
  const count = chunkCount(runtime, values.quick);
  const report = await runChunkPipes(implementations, count, sampling(values.quick), values.implementation);
  console.log(JSON.stringify(report));
  process.exitCode = report.failures.length > 0 ? 1 : 0;
}
