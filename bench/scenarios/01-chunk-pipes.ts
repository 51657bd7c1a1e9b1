/**
 * Scenario 1: per-chunk pipes of small value chunks (`pipeTo`, a reader loop, one `TransformStream`, `for
 * await`, and the draining shapes for implementations with the extension), for every implementation of
 * `bench/support/implementations.ts`, in Node and inside workerd. The benchmarks are
 * `01-chunk-pipes.bench.ts`, run by `vitest bench`; this file starts that run and builds the tables from what it
 * leaves (chunks per sample: see `chunkCount`).
 *
 * Run alone: `npx node bench/scenarios/01-chunk-pipes.ts [--quick]`.
 *
 * @module
 */
import { chunkCount, expectedTally, PIPE_SHAPES, shapeEntries, shapesFor } from "../support/chunk-pipe-shapes.ts";
import { implementationsFor } from "../support/implementations.ts";
import { runAlone } from "../support/run-alone.ts";
import { defineScenario } from "../support/scenario.ts";
import type { OutputCheck, ScenarioResult, Speedup } from "../support/scenario-result.ts";
import { significant } from "../support/stats.ts";
import { NATIVE } from "../support/streams-implementation.ts";
import {
  BUNDLE_NOTE,
  implementationsIn,
  medianMs,
  PROJECTS,
  RUNTIMES,
  runtimeLabel,
  runVitestBench,
  type VitestRuntime,
} from "../support/vitest-bench.ts";

/** Chunks per run of the in-process check. */
const CHECK_CHUNKS = 2000;

/**
 * Scenario 1's table for `runtime`: chunks/s per shape and implementation, and each one's ratio to native.
 * `vitestPassed` says whether the vitest run (whose tests check every shape's count and sum) passed.
 */
function chunkPipesResult(
  runtime: VitestRuntime,
  runtimeLabel: string,
  quick: boolean,
  vitestPassed: boolean,
): ScenarioResult {
  const count = chunkCount(runtime, quick);
  const implementations = implementationsIn(runtime);
  const others = implementations.filter((implementation) => implementation.name !== NATIVE);
  const speedups: Speedup[] = [];
  const rows = PIPE_SHAPES.flatMap((shape) => {
    const entries = shapeEntries(shape, implementations, NATIVE);
    if (entries.length < 2) return [];
    const native = medianMs(runtime, "chunk-pipes", shape.name, NATIVE);
    const standIn = entries[0]!.runs === shape ? "" : ` (native: ${entries[0]!.runs.name})`;
    const row: Record<string, string | number> = { shape: `${shape.name}${standIn}` };
    for (const { implementation } of entries) {
      const ms = medianMs(runtime, "chunk-pipes", shape.name, implementation.name);
      row[`${implementation.name} chunks/s`] = ms === undefined ? "–" : Math.round(count / (ms / 1000));
      if (implementation.name !== NATIVE && ms !== undefined && native !== undefined) {
        row[`${implementation.name} × native`] = significant(native / ms);
        speedups.push({ label: `${shape.name}: ${implementation.name}`, value: significant(native / ms) });
      }
    }
    return [row];
  });
  const expected = expectedTally(count);
  return {
    id: `chunk-pipes-${runtime}`,
    title: `per-chunk pipes of ${count.toLocaleString("en")} small value chunks (${runtime})`,
    runtime: runtimeLabel,
    columns: [
      "shape",
      `${NATIVE} chunks/s`,
      ...others.flatMap((implementation) => [`${implementation.name} chunks/s`, `${implementation.name} × native`]),
    ],
    rows,
    notes: [
      `vitest bench fixture (project ${PROJECTS[runtime]}): one sample moves ${count.toLocaleString("en")} ` +
        "numbers from a pull source (one enqueue per pull) to a summing sink; median of 3 samples after 1 warm-up.",
      "× native = native's median time ÷ the implementation's (above 1: faster than the runtime's own streams).",
      BUNDLE_NOTE,
    ],
    speedups,
    checks: [
      {
        variant: `all shapes (${runtime})`,
        ok: vitestPassed,
        detail:
          `each implementation's count and sum checked (expected ${expected.count} chunks summing to ` +
          `${expected.sum} per sample; 1000 with expect before benching)`,
      },
    ],
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
    "(vitest bench, `01-chunk-pipes.bench.ts`).",
  why:
    "per-chunk overhead is what drainpipe's streams exist to cut; tiny chunks and no work per chunk leave " +
    "nothing else to measure, and the ratio to the runtime's own streams shows where drainpipe stands.",
  options: {},
  quick: {},
  async run(_options, { quick }) {
    const passed = runVitestBench("bench/scenarios/01-chunk-pipes.bench.ts", "chunk-pipes", quick);
    return RUNTIMES.map((runtime) => chunkPipesResult(runtime, runtimeLabel(runtime), quick, passed));
  },
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
    return checks;
  },
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
