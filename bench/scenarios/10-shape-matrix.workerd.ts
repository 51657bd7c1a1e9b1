/**
 * Scenario 10 inside workerd: one worker per row (`bench/workers/shape-matrix-worker.ts`, bundled by wrangler as a
 * deployment is, drainpipe from `src/streams/index.ts`), each started with wrangler's `unstable_dev` as a workerd
 * process of its own. Each request runs one shape `runs` times; the worker times the runs with its own clock (see
 * the worker for why), and the scenario checks that clock against the requests' wall time.
 *
 * @module
 */
import { resolve } from "node:path";
import { quietWrangler } from "../../src/cli/embedded-worker.ts";
import { describeMachine } from "../harness/machine.ts";
import { timed } from "../harness/stats.ts";
import { implementationsFor } from "../implementations/registry.ts";
import type { MatrixAnswer } from "../workers/shape-matrix-worker.ts";
import type { MatrixShape } from "../workloads/matrix-shape.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";
import { BATCH } from "./10-shape-matrix.rows.ts";
import { type MatrixMeasurement, newMeasurement, recordShape } from "./10-shape-matrix.table.ts";

const WORKERS = resolve(import.meta.dirname, "../workers");

/** A started worker running one row. */
interface RowWorker {
  row: string;
  url: string;
  stop: () => Promise<void>;
}

/** Starts the worker of `row`. */
async function startWorker(row: string): Promise<RowWorker> {
  const { unstable_dev } = await import("wrangler");
  const worker = await unstable_dev(resolve(WORKERS, "shape-matrix-worker.ts"), {
    config: resolve(WORKERS, "shape-matrix-worker.jsonc"),
    vars: { IMPLEMENTATION: row },
    persist: false,
    logLevel: "warn",
    experimental: { disableExperimentalWarning: true },
  });
  return { row, url: `http://${worker.address}:${worker.port}`, stop: () => worker.stop() };
}

/**
 * One request to `worker`, timed from before the fetch to the end of the answer's body.
 *
 * @throws {Error} when the worker refuses it.
 */
async function request(worker: RowWorker, path: string): Promise<{ ms: number; answer: MatrixAnswer }> {
  const { ms, value } = await timed(async () => {
    const response = await fetch(`${worker.url}${path}`);
    return { status: response.status, text: await response.text() };
  });
  if (value.status !== 200) throw new Error(`${worker.row} answered ${value.status}: ${value.text.slice(0, 300)}`);
  return { ms, answer: JSON.parse(value.text) as MatrixAnswer };
}

/** The shapes `row` runs in workerd: the batch row only those with a batch variant. */
function shapesOf(row: string): MatrixShape[] {
  return row === BATCH ? MATRIX_SHAPES.filter((shape) => shape.batch) : [...MATRIX_SHAPES];
}

/** The worker's clock against the wall: the ms it counted and the requests' wall ms, over the timed requests. */
interface Clocks {
  insideMs: number;
  wallMs: number;
}

/**
 * Runs `shape` `runs` times on `worker` and records the answer in `measurement` (its best time when `timedRound`,
 * adding to `clocks`); a wrong tally or a refused request is recorded as a failure.
 */
async function runOnWorker(
  measurement: MatrixMeasurement,
  worker: RowWorker,
  shape: MatrixShape,
  runs: number,
  clocks: Clocks | undefined,
): Promise<void> {
  const query = new URLSearchParams({ shape: shape.name, count: String(measurement.count), runs: String(runs) });
  try {
    const { ms, answer } = await request(worker, `/run?${query}`);
    const expected = shape.expected(measurement.count);
    const { tally, bestMs } = answer;
    const wrong = tally && (tally.count !== expected.count || tally.sum !== expected.sum);
    const failure =
      answer.failure ??
      (wrong ? `tally ${tally.count}/${tally.sum}, expected ${expected.count}/${expected.sum}` : undefined);
    const report = { shape: shape.name, ...answer, ...(failure ? { failure } : {}) };
    const counted = clocks && bestMs !== undefined && bestMs > 0;
    if (counted) {
      clocks.insideMs += bestMs * runs;
      clocks.wallMs += ms;
    }
    recordShape(measurement, worker.row, report, counted ? bestMs : undefined);
  } catch (error) {
    recordShape(measurement, worker.row, { shape: shape.name, failure: (error as Error).message }, undefined);
  }
}

/** What the notes say about the worker's clock: how far it moved against the wall time of the timed requests. */
function clockNote({ insideMs, wallMs }: Clocks): string {
  return (
    `Over the timed requests the workers' clocks counted ${Math.round(insideMs)} ms of runs in ` +
    `${Math.round(wallMs)} ms of request wall time (the rest: requests through wrangler's proxy, responses).`
  );
}

/**
 * Measures the matrix at `count` in one workerd worker per row: an untimed pass (one run per request) when
 * `warmUp`, then `rounds` interleaved rounds of requests running each shape `runs` times.
 */
export async function measureInWorkerd(
  count: number,
  rounds: number,
  runs: number,
  warmUp: boolean,
): Promise<MatrixMeasurement> {
  quietWrangler();
  const rows = implementationsFor("workerd").map((implementation) => implementation.name);
  const machine = describeMachine();
  const label = `workerd ${machine.workerd} (wrangler ${machine.wrangler} unstable_dev)`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const notes = [
    "One worker per row (bench/workers/shape-matrix-worker.ts, bundled by wrangler as a deployment is, drainpipe " +
      "from src/streams/index.ts), each a workerd process of its own, started with unstable_dev. " +
      `${warmUp ? "One untimed pass, then " : ""}${plural(rounds, "round")}, each shape's requests interleaved ` +
      `over the rows; a request runs the shape ${plural(runs, "time")}, timed by the worker's own clock (local ` +
      "workerd advances it during CPU work, in whole ms; deployed Workers would not), the best kept; a cell is the " +
      "median over rounds. Every run's tally was checked.",
  ];
  const measurement = newMeasurement("workerd", label, count, rows, notes);
  const clocks: Clocks = { insideMs: 0, wallMs: 0 };
  const workers: RowWorker[] = [];
  try {
    const starting = rows.map((row) => startWorker(row).then((worker) => workers.push(worker)));
    // Started together (before any timing), and all stopped below even when one fails to start.
    const started = await Promise.allSettled(starting);
    const refused = started.find((outcome) => outcome.status === "rejected");
    if (refused) throw refused.reason;
    workers.sort((a, b) => rows.indexOf(a.row) - rows.indexOf(b.row));
    for (let round = warmUp ? 0 : 1; round <= rounds; round++) {
      for (const shape of MATRIX_SHAPES) {
        for (const worker of workers) {
          if (!shapesOf(worker.row).includes(shape)) continue;
          if (round > 0 && measurement.unsupported.get(worker.row)?.has(shape.name)) continue;
          await runOnWorker(measurement, worker, shape, round === 0 ? 1 : runs, round === 0 ? undefined : clocks);
        }
      }
    }
  } catch (error) {
    measurement.failures.push(`process workerd: ${(error as Error).message}`);
  } finally {
    for (const worker of workers) await worker.stop();
  }
  notes.push(clockNote(clocks));
  return measurement;
}
