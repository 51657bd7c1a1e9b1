/**
 * Starting the bench worker (`bench/workers/ingest-worker.ts`) in local workerd, and measuring one request to it or to
 * the real worker (`harness/local-worker.ts`): the CPU time and memory of the workerd process that runs the worker
 * (Linux `/proc`) while the request runs.
 *
 * The bench worker is started as the CLI's `startEmbeddedWorker` starts the real one (wrangler's `unstable_dev`),
 * with the project's `wrangler.toml`, so it gets the same R2 binding and compatibility date.
 *
 * @module
 */
import { resolve } from "node:path";
import { type RunningWorker, workerdPid } from "../../harness/local-worker.ts";
import { cpuMs, memoryOf, resetPeakRss } from "../../harness/process-usage.ts";
import { quietWrangler } from "../../src/cli/embedded-worker.ts";
import { timed } from "../harness/stats.ts";

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/**
 * Starts `bench/workers/ingest-worker.ts` with R2 persisted under `stateDir`.
 *
 * @example
 * ```ts
 * const worker = await startIngestWorker(await mkdtemp(join(tmpdir(), "bench-")));
 * await fetch(`${worker.url}/floor/read`, { method: "POST", body });
 * await worker.stop();
 * ```
 */
export async function startIngestWorker(stateDir: string): Promise<RunningWorker> {
  quietWrangler();
  const { unstable_dev } = await import("wrangler");
  const started = await unstable_dev(resolve(PROJECT_ROOT, "bench/workers/ingest-worker.ts"), {
    config: resolve(PROJECT_ROOT, "wrangler.toml"),
    persistTo: stateDir,
    logLevel: "warn",
    experimental: { disableExperimentalWarning: true },
  });
  return { url: `http://${started.address}:${started.port}`, headers: {}, pid: workerdPid, stop: () => started.stop() };
}

/**
 * Waits until the worker's workerd process has been idle (under 5% of a core over half a second) or
 * `timeoutMs` passed; returns how long it waited. Requests a load test abandons keep running in workerd once
 * their body has arrived, so the next measurement must wait for them.
 */
export async function waitUntilIdle(worker: RunningWorker, timeoutMs = 180_000): Promise<number> {
  const start = performance.now();
  const interval = 500;
  const sleep = () => new Promise((resolve) => setTimeout(resolve, interval));
  // wrangler restarts workerd when a watched file changes: while it does, there is no process to read.
  const cpu = async (): Promise<number> => {
    for (;;) {
      try {
        return cpuMs(worker.pid());
      } catch (error) {
        if (performance.now() - start > timeoutMs) throw error;
        await sleep();
      }
    }
  };
  let before = await cpu();
  while (performance.now() - start < timeoutMs) {
    await sleep();
    const after = await cpu();
    if (after - before <= interval * 0.05) break;
    before = after;
  }
  return performance.now() - start;
}

/** What {@linkcode measureRequest} saw of one request. */
export interface MeasuredRequest<T> {
  /** Wall time of the request as this process saw it, in milliseconds. */
  ms: number;
  /**
   * CPU time (user + system, all threads) of the worker's workerd process from just before the request until
   * the process was idle again, in milliseconds ({@linkcode cpuMs}: steps of 10 ms).
   */
  cpuMs: number;
  /** Peak RSS of that process in bytes: the request's own when {@linkcode peakReset}, else since it started. */
  peak: number;
  /** Whether the peak could be reset before the request ({@linkcode resetPeakRss}). */
  peakReset: boolean;
  /** What `request` resolved with. */
  value: T;
}

/**
 * Runs `request` (one request to `worker`, described by `what` in errors) once the worker is idle, and measures
 * it: its wall time, the CPU time of the workerd process running the worker's code until that process is idle
 * again (so work the request left to background threads counts too) and the peak RSS it caused. Retried once if
 * wrangler restarted workerd meanwhile.
 *
 * @throws {Error} when workerd was restarted during both attempts, or the request's own error on the second.
 *
 * @example
 * ```ts
 * const path = "/floor/read";
 * const { ms, cpuMs, value } = await measureRequest(worker, path, () => postJson(worker, path, body));
 * ```
 */
export async function measureRequest<T>(
  worker: RunningWorker,
  what: string,
  request: () => Promise<T>,
): Promise<MeasuredRequest<T>> {
  for (let attempt = 1; ; attempt++) {
    await waitUntilIdle(worker);
    const pid = worker.pid();
    const peakReset = resetPeakRss(pid);
    const cpuBefore = cpuMs(pid);
    try {
      const { ms, value } = await timed(request);
      await waitUntilIdle(worker);
      if (worker.pid() === pid) {
        return { ms, cpuMs: cpuMs(pid) - cpuBefore, peak: memoryOf(pid).peak, peakReset, value };
      }
    } catch (error) {
      if (attempt >= 2) throw error;
    }
    if (attempt >= 2) throw new Error(`Cannot measure ${what}: workerd was restarted during the request twice`);
  }
}

/**
 * POSTs `body` (none by default) to `path` of `worker` and resolves with the JSON answer.
 *
 * @throws {Error} when the worker answers with an error status.
 *
 * @example
 * ```ts
 * const { bytes } = (await postJson(worker, "/floor/read", body)) as { bytes: number };
 * ```
 */
export async function postJson(worker: RunningWorker, path: string, body?: Uint8Array): Promise<unknown> {
  const response = await fetch(`${worker.url}${path}`, {
    method: "POST",
    body: body as Uint8Array<ArrayBuffer> | undefined,
    headers: worker.headers,
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`Cannot POST ${path}: the worker answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}
