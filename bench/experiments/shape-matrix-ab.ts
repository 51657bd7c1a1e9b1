/**
 * Scenario 10's shapes, before and after a change: the runtime's own streams, drainpipe as of a git ref (the
 * baseline) and drainpipe as in the working tree, each in a process of its own, rounds interleaved, on the runtimes
 * and shapes chosen; for shapes with a batch variant also drainpipe's batch API (`readMany`, `writev`) before and
 * after, and in Node 26 `node:stream/iter` on the shapes it can express. Prints, per runtime and shape, every
 * column's chunks/s and each drainpipe column as a ratio to native and, where it ran, to `node:stream/iter`
 * (medians over rounds of each process's best run), by the clock and by CPU time (the process's, every thread), which
 * a loaded machine disturbs less. Every run's tally is checked by the runner.
 *
 * Run: `npm run bench:ab -- [--baseline main] [--runtime node24]… [--shape "tee"]… [--count 50000] [--rounds 3]
 * [--runs 2]`. `--runtime` is one of node20, node24, node26, bun, deno (every one when
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
import { BATCH, DRAINPIPE, STREAM_ITER } from "../scenarios/10-shape-matrix.rows.ts";
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
/** A column: what one process per round runs (a row of scenario 10, from a bundle of drainpipe). */
interface Column {
  name: string;
  row: string;
  bundle: string;
}

const drainpipeColumns: Column[] = [
  { name: `before (${values.baseline})`, row: DRAINPIPE, bundle: baseline },
  { name: "after", row: DRAINPIPE, bundle: bundles.drainpipe },
  { name: `batch before (${values.baseline})`, row: BATCH, bundle: baseline },
  { name: "batch after", row: BATCH, bundle: bundles.drainpipe },
];
const runtimes = PROCESS_RUNTIMES.filter((runtime) => values.runtime?.includes(runtime.id) ?? true);
for (const runtime of runtimes) {
  const binary = runtime.binary();
  const peers: Column[] = [{ name: NATIVE, row: NATIVE, bundle: bundles.drainpipe }];
  if (runtime.rows.includes(STREAM_ITER))
    peers.push({ name: STREAM_ITER, row: STREAM_ITER, bundle: bundles.drainpipe });
  const columns = [...peers, ...drainpipeColumns];
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
  /** The median of `column`'s samples of `shape`, NaN when it has none (no such variant). */
  const medianOf = (bySample: Map<string, number[]>, shape: string) => {
    const list = bySample.get(shape);
    return list === undefined ? Number.NaN : median(list);
  };
  /** `a ÷ b` rounded, or "–" when either is missing. */
  const ratio = (a: number, b: number) => (Number.isNaN(a / b) ? "–" : (a / b).toFixed(2));
  const measured = MATRIX_SHAPES.filter((shape) => samples[0]!.has(shape.name));
  const speeds = measured.map((shape) => {
    const row: Record<string, string | number> = { shape: shape.name };
    for (const [index, column] of columns.entries()) {
      const ms = medianOf(samples[index]!, shape.name);
      row[column.name] = Number.isNaN(ms) ? "–" : Math.round((shape.chunks(count) / ms) * 1000);
    }
    return row;
  });
  console.log(`\n${runtime.id} (${binary}), count ${count}, ${rounds} rounds × best of ${runs}; chunks/s by the clock`);
  console.table(speeds);
  for (const [peerIndex, peer] of peers.entries()) {
    const ratios = measured.map((shape) => {
      const row: Record<string, string> = { shape: shape.name };
      for (const [offset, column] of drainpipeColumns.entries()) {
        const index = peers.length + offset;
        const clock = ratio(medianOf(samples[peerIndex]!, shape.name), medianOf(samples[index]!, shape.name));
        const cpu = ratio(medianOf(cpuSamples[peerIndex]!, shape.name), medianOf(cpuSamples[index]!, shape.name));
        row[column.name] = `${clock} / ${cpu}`;
      }
      return row;
    });
    console.log(`÷ ${peer.name} (above 1: drainpipe faster), by the clock / by CPU`);
    console.table(ratios);
  }
}
