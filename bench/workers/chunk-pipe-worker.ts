/**
 * A bench-only worker (never deployed) for scenario 8: runs one of scenario 1's per-chunk pipe shapes
 * (`bench/workloads/chunk-pipe-shapes.ts`) once, with the one workerd implementation of
 * `bench/implementations/registry.ts` it was started for (its `IMPLEMENTATION` var: workerd's own streams, drainpipe
 * from `src/streams/index.ts`, its draining extension path, the polyfill). Scenario 8 starts one such worker per
 * implementation, so no call site of the shapes is shared between implementations, each with wrangler's
 * `unstable_dev` and this worker's own configuration (`chunk-pipe-worker.jsonc`), so wrangler bundles it as it
 * bundles a deployment.
 *
 * `GET /run?shape=<name>&count=<n>` answers JSON {@linkcode ChunkPipeAnswer}: the tally the
 * shape's sink saw, and how far `performance.now()` moved inside the worker meanwhile (deployed Workers advance
 * their clocks only at I/O, so the scenario times requests from outside and reports this only as a check). A
 * request the worker cannot run answers 400 with `{ error }`.
 *
 * @module
 */

import { implementationsFor } from "../implementations/registry.ts";
import { shapesFor, type Tally } from "../workloads/chunk-pipe-shapes.ts";

/** What `GET /run` answers. */
export interface ChunkPipeAnswer extends Tally {
  /** How far `performance.now()` moved inside the worker during the run, in ms. */
  clockMs: number;
}

/** The worker's bindings. */
interface Env {
  /** The implementation this worker runs. */
  IMPLEMENTATION: string;
}

/**
 * Runs the shape `url` names with the implementation `implementationName`, moving `count` chunks.
 *
 * @throws {Error} when the implementation or the shape is unknown, or the count is not a positive integer.
 */
async function run(implementationName: string, url: URL): Promise<ChunkPipeAnswer> {
  const shapeName = url.searchParams.get("shape");
  const count = Number(url.searchParams.get("count"));
  const implementation = implementationsFor("workerd").find((candidate) => candidate.name === implementationName);
  if (!implementation) throw new Error(`Cannot run a pipe: no implementation "${implementationName}"`);
  const shape = shapesFor(implementation).find((candidate) => candidate.name === shapeName);
  if (!shape) throw new Error(`Cannot run a pipe: ${implementation.name} has no shape "${shapeName}"`);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`Cannot run a pipe: count must be a positive integer`);
  const start = performance.now();
  const tally = await shape.run(implementation, count);
  return { ...tally, clockMs: performance.now() - start };
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
