/**
 * A worker running in local workerd, as the tests over real HTTP and the benchmarks start it: its origin, the
 * headers its requests need, and the pid of the workerd process that runs its code (to read that process's memory
 * and CPU time with `process-usage.ts`).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { startEmbeddedWorker } from "../src/cli/embedded-worker.ts";
import { descendantsNamed } from "./process-usage.ts";

/** A worker running in local workerd. */
export interface RunningWorker {
  /** Its origin, e.g. `http://127.0.0.1:41873`. */
  url: string;
  /** Headers every request must carry (the bearer token of the real worker; none for the bench worker). */
  headers: Record<string, string>;
  /**
   * The pid of the workerd process that runs the worker's code (not wrangler's proxy). Looked up on every call:
   * wrangler restarts workerd when a source file changes. Only one worker may run at a time for this to work.
   */
  pid(): number;
  /** Stops the worker. */
  stop(): Promise<void>;
}

/**
 * The workerd process of this process's only running worker: the one wrangler started with an inspector.
 *
 * @throws {Error} when there is not exactly one such process.
 */
export function workerdPid(): number {
  const all = descendantsNamed(process.pid, "workerd");
  const runsCode = all.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr"));
  if (runsCode.length !== 1) {
    throw new Error(
      `Cannot find the worker's workerd process: ${all.length} workerd processes (${all.join(", ")}), ` +
        `${runsCode.length} with an inspector`,
    );
  }
  return runsCode[0]!;
}

/**
 * Starts the real worker (`src/worker/index.ts`, through the CLI's embedded starter) with R2 under `stateDir`.
 *
 * @example
 * ```ts
 * const worker = await startRealWorker(await mkdtemp(join(tmpdir(), "drainpipe-")));
 * await fetch(`${worker.url}/files`, { headers: worker.headers });
 * await worker.stop();
 * ```
 */
export async function startRealWorker(stateDir: string): Promise<RunningWorker> {
  const started = await startEmbeddedWorker({ stateDir });
  return {
    url: started.url,
    headers: { Authorization: `Bearer ${started.token}` },
    pid: workerdPid,
    stop: () => started.stop(),
  };
}
