/**
 * Scenario 10's rows (the implementations it measures, by name) and what its runner
 * (`10-shape-matrix.runner.ts`) reports for one of them, shared by the runner, the worker and the scenario.
 *
 * @module
 */
import { DRAINPIPE, DRAINPIPE_BATCH, NATIVE } from "../implementations/streams-implementation.ts";
import type { Tally } from "../workloads/matrix-chunks.ts";

/** The experimental-fast-webstreams row. */
export const FAST = "experimental-fast-webstreams";
/** The web-streams-polyfill row. */
export const POLYFILL = "web-streams-polyfill";
export { DRAINPIPE, DRAINPIPE_BATCH as BATCH };
/** Node 26's `node:stream/iter` row: the shapes it can express. */
export const STREAM_ITER = "node:stream/iter";

/** Every row, in table order. */
export const ROWS = [NATIVE, POLYFILL, FAST, DRAINPIPE, DRAINPIPE_BATCH, STREAM_ITER] as const;

/** What one shape did in one process (or one worker). */
export interface ShapeReport {
  /** The shape's name. */
  shape: string;
  /** The fastest timed run, ms; absent when the shape is unsupported or failed. */
  bestMs?: number;
  /** The process's CPU time (user and system, every thread) in its cheapest timed run, ms; absent as `bestMs` is. */
  bestCpuMs?: number;
  /** The tally of the last run (every run's was checked against the expected one). */
  tally?: Tally;
  /** Set when the implementation lacks what the shape needs. */
  unsupported?: true;
  /** Why the shape failed: a wrong tally or an error. */
  failure?: string;
}

/** What the runner prints for one process. */
export interface RunnerReport {
  /** `navigator.userAgent`, or `Node/<version>` where there is none (Node 20). */
  userAgent: string;
  /** The row measured. */
  implementation: string;
  /** Every shape the row can express, in matrix order. */
  shapes: ShapeReport[];
}
