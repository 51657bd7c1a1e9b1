/**
 * Scenario 2: the benchmark matrix of the workerd draining-read PR (four chunk sizes × value/byte streams ×
 * highWaterMark 0 and 16 KiB, and byte streams with autoAllocateChunkSize 64 KiB), each stream pumped with
 * `pipeTo` into a discarding sink, for every implementation of `bench/implementations/registry.ts`, in Node and
 * inside workerd. The benchmarks are `02-draining-matrix.bench.ts`, run by `vitest bench`; this file starts that
 * run and builds the tables from what it leaves.
 *
 * Run alone: `npx node bench/scenarios/02-draining-matrix.ts [--quick]`.
 *
 * @module
 */

import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult, Speedup } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
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
import { NATIVE, type StreamsImplementation } from "../implementations/streams-implementation.ts";
import {
  CHUNK_SIZES,
  PUBLISHED_SPEEDUPS,
  prCaseKey,
  pumpCase,
  repsPerSample,
  STREAM_CONFIGS,
} from "./02-draining-matrix.cases.ts";

/** The column of the PR's published speedups. */
const PUBLISHED_COLUMN = "draining-read PR New/Existing";

/**
 * Scenario 2's table for `runtime`: µs per stream of every case and implementation, the ratio to native next
 * to the PR's published New/Existing ratio, and (Node only) the sink's write calls per stream.
 */
async function drainingMatrixResult(
  runtime: VitestRuntime,
  runtimeLabel: string,
  quick: boolean,
  vitestPassed: boolean,
): Promise<ScenarioResult> {
  const implementations = implementationsIn(runtime);
  const others = implementations.filter((implementation) => implementation.name !== NATIVE);
  const speedups: Speedup[] = [];
  const checks: OutputCheck[] = [];
  const rows: Record<string, string | number>[] = [];
  for (const config of STREAM_CONFIGS) {
    for (const size of CHUNK_SIZES) {
      const group = `${size.name} ${config.name}`;
      const reps = repsPerSample(size, quick);
      const perStream = (implementation: StreamsImplementation) => {
        const ms = medianMs(runtime, "draining-matrix", group, implementation.name);
        return ms === undefined ? undefined : (ms * 1000) / reps;
      };
      const native = perStream(implementations[0]!);
      const published = PUBLISHED_SPEEDUPS[prCaseKey(size, config)];
      const row: Record<string, string | number> = {
        case: `${size.name} (${size.bytes} B × ${size.chunks})`,
        config: config.name,
        [`${NATIVE} µs`]: native === undefined ? "–" : significant(native),
      };
      for (const implementation of others) {
        const us = perStream(implementation);
        row[`${implementation.name} µs`] = us === undefined ? "–" : significant(us);
        const ratio = us === undefined || native === undefined || us === 0 ? undefined : significant(native / us);
        row[`${implementation.name} × native`] = ratio ?? "–";
        if (ratio !== undefined)
          speedups.push({
            label: `${group}: ${implementation.name}`,
            value: ratio,
            ...(published === undefined ? {} : { published }),
          });
      }
      row[PUBLISHED_COLUMN] = published ?? "–";
      if (runtime === "node") {
        const counts = await Promise.all(
          implementations.map((implementation) => pumpCase(implementation, size, config)),
        );
        row["writes/stream"] = counts.map((count) => count.writes).join(" / ");
        const ok = counts.every((count) => count.bytes === size.bytes * size.chunks);
        if (!ok)
          checks.push({
            variant: group,
            ok,
            detail: `bytes counted ${counts.map((count) => count.bytes).join(", ")} of ${size.bytes * size.chunks}`,
          });
      }
      rows.push(row);
    }
  }
  checks.push({
    variant: `all cases (${runtime})`,
    ok: vitestPassed,
    detail: "each implementation's byte count checked with expect before benching",
  });
  return {
    id: `draining-matrix-${runtime}`,
    title: `the workerd draining-read PR's matrix (${runtime})`,
    runtime: runtimeLabel,
    columns: [
      "case",
      "config",
      `${NATIVE} µs`,
      ...others.flatMap((implementation) => [`${implementation.name} µs`, `${implementation.name} × native`]),
      PUBLISHED_COLUMN,
      ...(runtime === "node" ? ["writes/stream"] : []),
    ],
    rows,
    notes: [
      `vitest bench fixture (project ${PROJECTS[runtime]}), each implementation in a vitest run and process of its ` +
        "own: each stream pumped with pipeTo into a discarding " +
        "WritableStream that counts bytes and write calls; a sample pumps " +
        `${quick ? "1 stream" : "20 (Tiny, Medium) or 40 (Small, Large) streams"}; µs per stream from the ` +
        "median of 5 samples after 1 warm-up.",
      "× native = native's time ÷ the implementation's. The PR's column is its published New/Existing speedup " +
        "(workerd's draining read vs its previous pump, the tables of its first comment); it compares two " +
        "workerd internals, ours compares whole JS implementations with the runtime's own, so only the " +
        "direction and the shape across cases are comparable.",
      BUNDLE_NOTE,
      ...(runtime === "node"
        ? [
            "writes/stream: the sink's write calls per stream, in the order " +
              `${implementations.map((implementation) => implementation.name).join(" / ")}.`,
          ]
        : []),
    ],
    speedups,
    checks,
  };
}

/** Scenario 2. */
export const scenario = defineScenario({
  id: "draining-matrix",
  title: "The draining-read matrix",
  measures:
    "µs per stream to pipe the workerd draining-read PR's benchmark matrix (Tiny 64 B × 256 to Large 64 KiB × " +
    "16 chunks, value and byte streams, highWaterMark 0 and 16 KiB, byte streams with autoAllocateChunkSize " +
    "64 KiB) into a discarding sink, for every stream implementation, in Node and inside workerd (vitest bench, " +
    "`02-draining-matrix.bench.ts`).",
  why:
    "the PR published how much draining reads sped up workerd's own pipes on exactly these cases; measuring the " +
    "same cases shows whether drainpipe's draining pipes gain in the same places, and what chunk size and " +
    "stream type cost every implementation.",
  options: {},
  quick: {},
  async run(_options, { quick }) {
    const passed = runVitestBench(
      "bench/scenarios/02-draining-matrix.bench.ts",
      "draining-matrix",
      quick,
      IMPLEMENTATIONS,
    );
    const results: ScenarioResult[] = [];
    for (const runtime of RUNTIMES) {
      results.push(await drainingMatrixResult(runtime, runtimeLabel(runtime), quick, passed));
    }
    return results;
  },
  async check() {
    const checks: OutputCheck[] = [];
    for (const implementation of implementationsFor("node")) {
      for (const config of STREAM_CONFIGS) {
        for (const size of CHUNK_SIZES) {
          const count = await pumpCase(implementation, size, config);
          const expected = size.bytes * size.chunks;
          checks.push({
            variant: `${implementation.name}, ${size.name} ${config.name}`,
            ok: count.bytes === expected && count.writes > 0,
            detail: `${count.bytes} bytes of ${expected} in ${count.writes} writes`,
          });
        }
      }
    }
    return checks;
  },
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
