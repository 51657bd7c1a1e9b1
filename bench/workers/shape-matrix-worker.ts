/**
 * A bench-only worker (never deployed) for scenario 10: runs one shape of the matrix
 * (`bench/workloads/matrix-shapes.ts`) once with the one row it was started for (its `IMPLEMENTATION` var: a
 * workerd row of `bench/implementations/registry.ts`, drainpipe imported from `src/streams/index.ts` and bundled by
 * wrangler). Scenario 10 starts one such worker per row, so no call site is shared between implementations.
 *
 * `GET /run?shape=<name>&count=<n>&runs=<r>` runs the shape `r` times and answers JSON {@linkcode MatrixAnswer}, each
 * run timed with `performance.now()` inside the worker: local workerd advances its clocks during CPU work (in whole
 * ms), which deployed Workers do not (they move them only at I/O), and timing from outside through wrangler's proxy
 * drowned 10 ms runs in 100 ms of request noise on a loaded machine. A request the worker cannot run answers 400
 * with `{ error }`.
 *
 * @module
 */
import { implementationsFor } from "../implementations/registry.ts";
import { DRAINPIPE_BATCH } from "../implementations/streams-implementation.ts";
import type { Tally } from "../workloads/matrix-chunks.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";

/** What `GET /run` answers: the runs' tally and best time, or that the implementation lacks what the shape needs. */
export interface MatrixAnswer {
  /** The last run's tally (every run's was checked: a wrong one answers `failure`). */
  tally?: Tally;
  /** The fastest run, ms, by the worker's own clock. */
  bestMs?: number;
  /** Why a run's tally was wrong. */
  failure?: string;
  /** Set when the implementation lacks what the shape needs (nothing ran). */
  unsupported?: true;
}

/** The worker's bindings. */
interface Env {
  /** The row this worker runs. */
  IMPLEMENTATION: string;
}

/**
 * Runs the shape `url` names with `row`'s implementation.
 *
 * @throws {Error} when the row, the shape or the count is unknown or wrong, or the row has no variant of the shape.
 */
async function run(row: string, url: URL): Promise<MatrixAnswer> {
  const batch = row === DRAINPIPE_BATCH;
  const implementation = implementationsFor("workerd").find((candidate) => candidate.name === row);
  if (!implementation) throw new Error(`Cannot run a shape: no workerd implementation "${row}"`);
  const shape = MATRIX_SHAPES.find((candidate) => candidate.name === url.searchParams.get("shape"));
  if (!shape) throw new Error(`Cannot run a shape: no shape "${url.searchParams.get("shape")}"`);
  const count = Number(url.searchParams.get("count"));
  const runs = Number(url.searchParams.get("runs") ?? 1);
  if (![count, runs].every((value) => Number.isSafeInteger(value) && value >= 1))
    throw new Error("Cannot run a shape: count and runs must be positive integers");
  if (batch && !shape.batch) throw new Error(`Cannot run a shape: ${row} has no variant of "${shape.name}"`);
  if (!batch && shape.supported && !(await shape.supported(implementation))) return { unsupported: true };
  const expected = shape.expected(count);
  let bestMs = Number.POSITIVE_INFINITY;
  let tally: Tally | undefined;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    tally = batch ? await shape.batch!(implementation, count) : await shape.standard(implementation, count);
    bestMs = Math.min(bestMs, performance.now() - start);
    if (tally.count !== expected.count || tally.sum !== expected.sum) {
      return { tally, failure: `tally ${tally.count}/${tally.sum}, expected ${expected.count}/${expected.sum}` };
    }
  }
  return { tally, bestMs };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/run") return Response.json({ error: "not-found" }, { status: 404 });
    try {
      return Response.json(await run(env.IMPLEMENTATION, url));
    } catch (error) {
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 400 });
    }
  },
};
