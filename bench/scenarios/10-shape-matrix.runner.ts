/**
 * Scenario 10's program for one process: loads ONE row's streams implementation (so no call site of the shapes is
 * shared with another implementation), runs every shape of the matrix it can express
 * (`bench/workloads/matrix-shapes.ts`) once untimed and `--runs` times timed, checks every run's tally, and prints
 * one {@linkcode RunnerReport} as JSON.
 *
 * `10-shape-matrix.ts` bundles this file with esbuild (Node 20 cannot load `.ts`, nor knows `import.meta.main`; one
 * bundle runs on Node 20, 24 and 26, Bun and Deno alike) and starts it once per row and round. Run by hand:
 * `npx node bench/scenarios/10-shape-matrix.runner.ts --implementation native --count 10000 --runs 1`
 * (`--bundle <drainpipe bundle>` for drainpipe's rows; Node 26 with `--experimental-stream-iter` for
 * `node:stream/iter`; `--shape <text>`, repeatable, runs only the shapes whose names contain one of the texts).
 *
 * @module
 */
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type * as drainpipe from "../../src/streams/index.ts";
import {
  classesOf,
  currentRuntime,
  drainpipeImplementations,
  NATIVE,
  type StreamClasses,
  type StreamsImplementation,
} from "../implementations/streams-implementation.ts";
import type { Tally } from "../workloads/matrix-chunks.ts";
import type { MatrixShape, StreamIter } from "../workloads/matrix-shape.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";
import {
  BATCH,
  DRAINPIPE,
  FAST,
  POLYFILL,
  ROWS,
  type RunnerReport,
  type ShapeReport,
  STREAM_ITER,
} from "./10-shape-matrix.rows.ts";

/** How a loaded row runs a shape: its variant of it, or `undefined` when it has none. */
type Variant = (shape: MatrixShape, count: number) => Promise<Tally> | undefined;

/** A loaded row: how it runs a shape, and for a standard row the classes its support probes check. */
interface Loaded {
  variant: Variant;
  classes?: StreamClasses;
}

/** A standard row on `implementation`: every shape's standard code. */
function standardRow(implementation: StreamsImplementation): Loaded {
  return { variant: (shape, count) => shape.standard(implementation, count), classes: implementation };
}

/**
 * Loads row `name` (drainpipe's rows from the esbuild bundle at `bundle`).
 *
 * @throws {Error} on an unknown name, or drainpipe's rows without `bundle`.
 */
async function load(name: string, bundle: string | undefined): Promise<Loaded> {
  const runtimes = [currentRuntime()];
  switch (name) {
    case NATIVE:
      return standardRow({ name, runtimes, ...classesOf(globalThis) });
    case POLYFILL:
      return standardRow({ name, runtimes, ...classesOf(await import("web-streams-polyfill")) });
    case FAST: {
      const fast = await import("experimental-fast-webstreams");
      const classes = {
        ReadableStream: fast.FastReadableStream,
        WritableStream: fast.FastWritableStream,
        TransformStream: fast.FastTransformStream,
      };
      return standardRow({ name, runtimes, ...classesOf(classes) });
    }
    case DRAINPIPE:
    case BATCH: {
      if (bundle === undefined) throw new Error(`Cannot load ${name}: --bundle <drainpipe bundle> is missing`);
      const streams = (await import(pathToFileURL(bundle).href)) as typeof drainpipe;
      const [plain, batch] = drainpipeImplementations(streams, runtimes);
      return name === BATCH ? { variant: (shape, count) => shape.batch?.(batch!, count) } : standardRow(plain!);
    }
    case STREAM_ITER: {
      const specifier = "node:stream/iter";
      const api = (await import(specifier)) as StreamIter;
      return { variant: (shape, count) => shape.iter?.(api, count) };
    }
    default:
      throw new Error(`Cannot load ${name}: not one of ${ROWS.join(", ")}`);
  }
}

/**
 * Runs `shape` with `loaded`: one untimed run, then `runs` timed ones, every tally checked against the expected
 * one. `undefined` when the row has no variant of the shape.
 */
async function measure(
  shape: MatrixShape,
  loaded: Loaded,
  count: number,
  runs: number,
): Promise<ShapeReport | undefined> {
  if (loaded.classes && shape.supported && !(await shape.supported(loaded.classes))) {
    return { shape: shape.name, unsupported: true };
  }
  const expected = shape.expected(count);
  let bestMs = Number.POSITIVE_INFINITY;
  let bestCpuMs = Number.POSITIVE_INFINITY;
  let tally: Tally | undefined;
  for (let run = 0; run <= runs; run++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    const pending = loaded.variant(shape, count);
    if (pending === undefined) return undefined;
    try {
      tally = await pending;
    } catch (error) {
      return { shape: shape.name, failure: `threw ${error instanceof Error ? error.message : String(error)}` };
    }
    const ms = performance.now() - start;
    const { user, system } = process.cpuUsage(startCpu);
    if (tally.count !== expected.count || tally.sum !== expected.sum) {
      const failure = `tally ${tally.count}/${tally.sum}, expected ${expected.count}/${expected.sum}`;
      return { shape: shape.name, tally, failure };
    }
    if (run > 0) {
      bestMs = Math.min(bestMs, ms);
      bestCpuMs = Math.min(bestCpuMs, (user + system) / 1000);
    }
  }
  return { shape: shape.name, bestMs, bestCpuMs, tally };
}

const { values } = parseArgs({
  options: {
    implementation: { type: "string", default: NATIVE },
    bundle: { type: "string" },
    count: { type: "string", default: "10000" },
    runs: { type: "string", default: "3" },
    shape: { type: "string", multiple: true },
  },
});
const only = values.shape;
const loaded = await load(values.implementation, values.bundle);
const shapes: ShapeReport[] = [];
for (const shape of MATRIX_SHAPES) {
  if (only !== undefined && !only.some((text) => shape.name.includes(text))) continue;
  const report = await measure(shape, loaded, Number(values.count), Number(values.runs));
  if (report) shapes.push(report);
}
const userAgent = typeof navigator === "undefined" ? `Node/${process.versions.node}` : navigator.userAgent;
const report: RunnerReport = { userAgent, implementation: values.implementation, shapes };
console.log(JSON.stringify(report));
