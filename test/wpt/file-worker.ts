/**
 * Entry point of the worker thread that runs one WPT test file on Node, Deno or Bun; started by `run-file.ts` with
 * {@link FileWorkerData} as `workerData`. The thread's own realm is the test's realm: testharness.js, the META
 * includes, the test file and the implementation under test are all evaluated in it (see `harness-session.ts`), so
 * promises, arrays and errors on both sides of every assertion share one set of intrinsics.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { startHarnessSession } from "./harness-session.ts";
import type { RunnerMessage, WorkerMessage } from "./results.ts";
import { describeError, reportUncaughtError, reportUnhandledRejection } from "./worker-like-global.ts";

/** What `run-file.ts` passes to this worker. */
export interface FileWorkerData {
  readonly wptDir: string;
  /** testharness.js, the test's META includes and the test file, absolute paths in evaluation order. */
  readonly scripts: readonly string[];
  readonly title: string | undefined;
  /** The implementation's module to import, or `null` to keep the runtime's built-in streams. */
  readonly moduleUrl: string | null;
}

const data = workerData as FileWorkerData;
const port = parentPort;
if (port === null) {
  throw new Error("Cannot run a WPT file: file-worker.ts must be started as a worker thread");
}

/**
 * A garbage collector for `common/gc.js`. On Node (V8), `gc` exists only in contexts created while `--expose-gc` is
 * on: turning the flag on and creating a throwaway context yields a working collector without asking every caller to
 * pass the flag. The flag is process-wide and left on (turning it back off would race with the other file workers).
 * Bun has `Bun.gc`; Deno has neither, and gc.js then makes garbage instead.
 */
function garbageCollector(): (() => unknown) | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun !== undefined) {
    return () => bun.gc(true);
  }
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
    return typeof gc === "function" ? (gc as () => unknown) : undefined;
  } catch {
    return undefined;
  }
}

async function fetchFromCheckout(url: string): Promise<Response> {
  if (!url.startsWith("/")) {
    throw new TypeError(`Cannot fetch ${url}: the WPT runner only serves root-relative paths of the checkout`);
  }
  try {
    return new Response(await readFile(path.join(data.wptDir, url), "utf8"));
  } catch (error) {
    return new Response(describeError(error), { status: 404 });
  }
}

const implementation = data.moduleUrl === null ? null : ((await import(data.moduleUrl)) as Record<string, unknown>);
const session = startHarnessSession({
  scripts: data.scripts.map((filename) => ({ source: readFileSync(filename, "utf8"), filename })),
  title: data.title,
  implementation,
  fetch: fetchFromCheckout,
  gc: garbageCollector(),
  evaluate: ({ source, filename }) => vm.runInThisContext(source, { filename }),
  post: (message: WorkerMessage) => port.postMessage(message),
  // From now on, uncaught exceptions and unhandled rejections become `error` and `unhandledrejection` events on the
  // global, as in a browser, instead of ending the thread; failures of the setup before still end it (a crash).
  onHarnessReady: () => {
    process.on("uncaughtException", reportUncaughtError);
    process.on("unhandledRejection", reportUnhandledRejection);
  },
});
port.on("message", (message: RunnerMessage) => {
  if (message.kind === "timeout") {
    session.timeout();
  }
});
