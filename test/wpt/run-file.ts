import path from "node:path";
import { Worker } from "node:worker_threads";
import type { FileWorkerData } from "./file-worker.ts";
import type { FileResult, HarnessStatus, SubtestResult, WorkerMessage } from "./results.ts";
import type { RunnableTestFile } from "./test-discovery.ts";

/** How long a file may run before its unfinished subtests are timed out: WPT's own normal and `long` timeouts. */
export const FILE_TIMEOUT_MS = { normal: 10_000, long: 60_000 } as const;

/** How long testharness.js gets to report completion after being told to time out, before the thread is killed. */
const TERMINATION_GRACE_MS = 2_000;

/** `file-worker.ts`, or `file-worker.mjs` next to a bundled runner (see `runtimes.ts`). */
const WORKER_URL = new URL(
  import.meta.url.endsWith(".mjs") ? "./file-worker.mjs" : "./file-worker.ts",
  import.meta.url,
);

/** Options of {@link runFile}. */
export interface RunFileOptions {
  readonly wptDir: string;
  /** The implementation's module URL, or `null` for the runtime's built-in streams. */
  readonly moduleUrl: string | null;
}

/**
 * Runs one WPT test file in a fresh worker thread and resolves with its results. When the file's timeout elapses,
 * testharness.js is asked to time out the subtests still running (they get `TIMEOUT`, the harness `TIMEOUT`); a
 * thread that does not answer (a synchronous endless loop, say) is terminated and the file's harness status is
 * `CRASH`, keeping the subtest results reported so far. Never rejects.
 *
 * @example
 * ```ts
 * const result = await runFile(file, { wptDir, moduleUrl: null });
 * console.log(result.harnessStatus, result.subtests.length);
 * ```
 */
export function runFile(file: RunnableTestFile, options: RunFileOptions): Promise<FileResult> {
  const workerData: FileWorkerData = {
    wptDir: options.wptDir,
    scripts: [path.join(options.wptDir, "resources/testharness.js"), ...file.scripts, file.absolutePath],
    title: file.title,
    moduleUrl: options.moduleUrl,
  };
  const worker = new Worker(WORKER_URL, { workerData, stdout: true, stderr: true });
  const subtests: SubtestResult[] = [];
  const output: string[] = [];
  worker.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  worker.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));

  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: HarnessStatus, message: string | null): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      void worker.terminate();
      resolve({ file: file.name, harnessStatus: status, harnessMessage: message, subtests, output: output.join("") });
    };
    const timeoutMs = file.longTimeout ? FILE_TIMEOUT_MS.long : FILE_TIMEOUT_MS.normal;
    let killTimer: NodeJS.Timeout | undefined;
    const timeoutTimer = setTimeout(() => {
      worker.postMessage({ kind: "timeout" });
      killTimer = setTimeout(
        () => finish("CRASH", `Terminated: still running ${TERMINATION_GRACE_MS} ms after the ${timeoutMs} ms timeout`),
        TERMINATION_GRACE_MS,
      );
    }, timeoutMs);

    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "subtest") {
        subtests.push(message.result);
      } else {
        finish(message.status, message.message);
      }
    });
    worker.on("error", (error) => finish("CRASH", `Worker failed: ${error.message}`));
    worker.on("exit", (code) => finish("CRASH", `Worker exited with code ${code} before testharness.js completed`));
  });
}
