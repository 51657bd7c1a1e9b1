/**
 * Turns the files the vitest benchmarks of scenarios 1 and 2 wrote (see `bench-files.ts`) into scenario
 * tables: one per scenario and runtime, every implementation's median next to native's.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { slug, VITEST_RESULTS_DIR } from "./bench-files.ts";
import { chunkCount, expectedTally, PIPE_SHAPES, shapeEntries } from "./chunk-pipe-shapes.ts";
import {
  articleKey,
  CHUNK_SIZES,
  PUBLISHED_SPEEDUPS,
  pumpCase,
  repsPerSample,
  STREAM_CONFIGS,
} from "./draining-cases.ts";
import { IMPLEMENTATIONS, NATIVE, type Runtime, type StreamsImplementation } from "./implementations.ts";
import type { OutputCheck, ScenarioResult, Speedup } from "./scenario-result.ts";
import { significant } from "./stats.ts";

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/** How drainpipe is loaded in scenarios 1 and 2 (see `bundled-drainpipe.ts`). */
const BUNDLE_NOTE =
  "drainpipe runs from an esbuild bundle of src/streams built when the benchmark starts, as wrangler bundles a worker; loaded from src/ through vitest's module transform, every call between its modules becomes a property load, which made it about 3.5× slower in earlier runs of this fixture.";

/** The vitest project that ran the benchmarks of `runtime`. */
const PROJECTS: Record<Runtime, string> = { node: "bench-node", workerd: "bench-workerd" };

/** The median sample time in ms of one benchmark, or `undefined` when it did not run. */
function medianMs(runtime: Runtime, scenario: string, group: string, implementation: string): number | undefined {
  const path = resolve(
    PROJECT_ROOT,
    VITEST_RESULTS_DIR,
    PROJECTS[runtime],
    scenario,
    slug(group),
    `${slug(implementation)}.json`,
  );
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as { latency: { p50: number } };
    return data.latency.p50;
  } catch {
    return undefined;
  }
}

function implementationsIn(runtime: Runtime): StreamsImplementation[] {
  return IMPLEMENTATIONS.filter((implementation) => implementation.runtimes.includes(runtime));
}

/**
 * Scenario 1's table for `runtime`: chunks/s per shape and implementation, and each one's ratio to native.
 * `vitestPassed` says whether the vitest run (whose tests check every shape's count and sum) passed.
 */
export function chunkPipesResult(
  runtime: Runtime,
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
    title: `Scenario 1: per-chunk pipes of ${count.toLocaleString("en")} small value chunks (${runtime})`,
    runtime: runtimeLabel,
    columns: [
      "shape",
      `${NATIVE} chunks/s`,
      ...others.flatMap((implementation) => [`${implementation.name} chunks/s`, `${implementation.name} × native`]),
    ],
    rows,
    notes: [
      `vitest bench fixture (project ${PROJECTS[runtime]}): one sample moves ${count.toLocaleString("en")} numbers from a pull source (one enqueue per pull) to a summing sink; median of 3 samples after 1 warm-up.`,
      "× native = native's median time ÷ the implementation's (above 1: faster than the runtime's own streams).",
      BUNDLE_NOTE,
    ],
    speedups,
    checks: [
      {
        variant: `all shapes (${runtime})`,
        ok: vitestPassed,
        detail: `each implementation's count and sum checked (expected ${expected.count} chunks summing to ${expected.sum} per sample; 1000 with expect before benching)`,
      },
    ],
  };
}

/**
 * Scenario 2's table for `runtime`: µs per stream of every case and implementation, the ratio to native next
 * to the article's published New/Existing ratio, and (Node only) the sink's write calls per stream.
 */
export async function drainingMatrixResult(
  runtime: Runtime,
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
      const published = PUBLISHED_SPEEDUPS[articleKey(size, config)];
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
      row["article 002 New/Existing"] = published ?? "–";
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
    title: `Scenario 2: article 002's matrix (${runtime})`,
    runtime: runtimeLabel,
    columns: [
      "case",
      "config",
      `${NATIVE} µs`,
      ...others.flatMap((implementation) => [`${implementation.name} µs`, `${implementation.name} × native`]),
      "article 002 New/Existing",
      ...(runtime === "node" ? ["writes/stream"] : []),
    ],
    rows,
    notes: [
      `vitest bench fixture (project ${PROJECTS[runtime]}): each stream pumped with pipeTo into a discarding WritableStream that counts bytes and write calls; a sample pumps ${quick ? "1 stream" : "20 (Tiny, Medium) or 40 (Small, Large) streams"}; µs per stream from the median of 5 samples after 1 warm-up.`,
      "× native = native's time ÷ the implementation's. The article's column is its published New/Existing speedup (workerd's draining read vs its previous pump, first comment's tables); it compares two workerd internals, ours compares whole JS implementations with the runtime's own, so only the direction and the shape across cases are comparable.",
      BUNDLE_NOTE,
      ...(runtime === "node"
        ? [
            `writes/stream: the sink's write calls per stream, in the order ${implementations.map((implementation) => implementation.name).join(" / ")}.`,
          ]
        : []),
    ],
    speedups,
    checks,
  };
}
