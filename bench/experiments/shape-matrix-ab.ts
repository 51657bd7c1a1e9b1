/**
 * Scenario 10's shapes, before and after a change: the runtime's own streams, drainpipe as of a git ref (the
 * baseline) and drainpipe as in the working tree, each in a process of its own, rounds interleaved, on the runtimes
 * and shapes chosen. Prints, per runtime and shape, the native chunks/s and both drainpipe rows as ratios to it
 * (medians over rounds of each process's best run), by the clock and by CPU time (the process's, every thread), which
 * a loaded machine disturbs less. Every run's tally is checked by the runner.
 *
 * Run: `npx node bench/experiments/shape-matrix-ab.ts [--baseline main] [--runtime node24]… [--shape "tee"]…
 * [--count 50000] [--rounds 3] [--runs 2]`. `--runtime` is one of node20, node24, node26, bun, deno (every one when
 * absent); `--shape` keeps the shapes whose names contain the text (every shape when absent).
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { median } from "simple-statistics";
import { bundleDrainpipeStreams } from "../../tools/bundled-drainpipe.ts";
import { NATIVE } from "../implementations/streams-implementation.ts";
import { buildBundles, PROCESS_RUNTIMES, runProcess } from "../scenarios/10-shape-matrix.processes.ts";
import { DRAINPIPE } from "../scenarios/10-shape-matrix.rows.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";

const ROOT = resolve(import.meta.dirname, "../..");

const { values } = parseArgs({
  options: {
    baseline: { type: "string", default: "main" },
    runtime: { type: "string", multiple: true },
    shape: { type: "string", multiple: true },
    count: { type: "string", default: "50000" },
    rounds: { type: "string", default: "3" },
    runs: { type: "string", default: "2" },
  },
});

/** Bundles `src/streams` as of git ref `ref` into one ES module, the way scenario 10 bundles the working tree. */
async function bundleAt(ref: string): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), "shape-matrix-ab-"));
  const archive = execFileSync("git", ["archive", ref, "src/streams"], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync("tar", ["-x", "-C", directory], { input: archive });
  const outfile = await bundleDrainpipeStreams(
    resolve(ROOT, "bench/.cache/shape-matrix/baseline-streams.js"),
    join(directory, "src/streams/index.ts"),
  );
  rmSync(directory, { recursive: true });
  return outfile;
}

/** Adds `ms` to the times of `shape` in `times`. */
function record(times: Map<string, number[]>, shape: string, ms: number): void {
  const list = times.get(shape) ?? [];
  list.push(ms);
  times.set(shape, list);
}

const count = Number(values.count);
const rounds = Number(values.rounds);
const runs = Number(values.runs);
const shapes = values.shape;
const bundles = await buildBundles();
const baseline = await bundleAt(values.baseline);
const columns = [
  { name: NATIVE, row: NATIVE, bundle: bundles.drainpipe },
  { name: `before (${values.baseline})`, row: DRAINPIPE, bundle: baseline },
  { name: "after", row: DRAINPIPE, bundle: bundles.drainpipe },
];
const runtimes = PROCESS_RUNTIMES.filter((runtime) => values.runtime?.includes(runtime.id) ?? true);
for (const runtime of runtimes) {
  const binary = runtime.binary();
  /** ms per round, by the clock and by CPU: `samples[column][shape]`. */
  const samples = columns.map(() => new Map<string, number[]>());
  const cpuSamples = columns.map(() => new Map<string, number[]>());
  for (let round = 0; round < rounds; round++) {
    for (const [index, column] of columns.entries()) {
      const report = await runProcess(
        runtime,
        binary,
        column.row,
        { ...bundles, drainpipe: column.bundle },
        { count, runs, shapes },
      );
      for (const shape of report.shapes) {
        if (shape.failure) throw new Error(`${column.name}, ${shape.shape}: ${shape.failure}`);
        if (shape.bestMs === undefined || shape.bestCpuMs === undefined) continue;
        record(samples[index]!, shape.shape, shape.bestMs);
        record(cpuSamples[index]!, shape.shape, shape.bestCpuMs);
      }
    }
  }
  const rows = MATRIX_SHAPES.filter((shape) => samples[0]!.has(shape.name)).map((shape) => {
    const ms = samples.map((bySample) => median(bySample.get(shape.name) ?? [Number.NaN]));
    const cpu = cpuSamples.map((bySample) => median(bySample.get(shape.name) ?? [Number.NaN]));
    return {
      shape: shape.name,
      "native chunks/s": Math.round((shape.chunks(count) / ms[0]!) * 1000),
      before: Number((ms[0]! / ms[1]!).toFixed(2)),
      after: Number((ms[0]! / ms[2]!).toFixed(2)),
      "before (CPU)": Number((cpu[0]! / cpu[1]!).toFixed(2)),
      "after (CPU)": Number((cpu[0]! / cpu[2]!).toFixed(2)),
    };
  });
  console.log(`\n${runtime.id} (${binary}), count ${count}, ${rounds} rounds × best of ${runs}`);
  console.table(rows);
}
