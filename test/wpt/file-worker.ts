/**
 * Entry point of the worker thread that runs one WPT test file; started by `run-file.ts` with {@link FileWorkerData}
 * as `workerData`. The thread's own realm is the test's realm: testharness.js, the META includes, the test file and
 * the implementation under test are all evaluated in it, so promises, arrays and errors on both sides of every
 * assertion share one set of intrinsics.
 */
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { STREAM_CLASS_NAMES } from "./implementation.ts";
import type { HarnessStatus, RunnerMessage, SubtestResult, WorkerMessage } from "./results.ts";
import { HARNESS_STATUS_NAMES, SUBTEST_STATUS_NAMES } from "./results.ts";
import {
  defineGlobal,
  makeGlobalWorkerLike,
  presentAsDedicatedWorker,
  reportUncaughtError,
  routeUncaughtErrorsToGlobal,
} from "./worker-like-global.ts";

/** What `run-file.ts` passes to this worker. */
export interface FileWorkerData {
  readonly wptDir: string;
  /** Absolute path of the test file, evaluated after `scripts`. */
  readonly testFile: string;
  /** testharness.js followed by the test's META includes, in evaluation order. */
  readonly scripts: readonly string[];
  readonly title: string | undefined;
  /** The implementation's module to import, or `null` to keep the runtime's built-in streams. */
  readonly moduleUrl: string | null;
}

/** The slice of testharness.js's `Test` object that result callbacks read. */
interface HarnessTest {
  readonly name: string;
  readonly status: number;
  readonly message: string | null;
}

/** The slice of testharness.js's global API that this worker calls. */
interface HarnessApi {
  add_result_callback(callback: (test: HarnessTest) => void): void;
  add_completion_callback(callback: (tests: unknown, status: { status: number; message: string | null }) => void): void;
  timeout(): void;
}

const data = workerData as FileWorkerData;
const port = parentPort;
if (port === null) {
  throw new Error("Cannot run a WPT file: file-worker.ts must be started as a worker thread");
}
const post = (message: WorkerMessage): void => port.postMessage(message);

/**
 * Replaces the runtime's stream classes on the global with the implementation's; a class the implementation lacks is
 * removed rather than left native, so that no test silently exercises the runtime's streams instead.
 */
async function installImplementation(moduleUrl: string): Promise<void> {
  const exports = (await import(moduleUrl)) as Record<string, unknown>;
  for (const name of STREAM_CLASS_NAMES) {
    if (typeof exports[name] === "function") {
      defineGlobal(name, exports[name]);
    } else {
      Reflect.deleteProperty(globalThis, name);
    }
  }
}

function evaluateScript(file: string): void {
  try {
    vm.runInThisContext(readFileSync(file, "utf8"), { filename: file });
  } catch (error) {
    reportUncaughtError(error);
  }
}

makeGlobalWorkerLike(data.wptDir);
if (data.moduleUrl !== null) {
  await installImplementation(data.moduleUrl);
}
if (data.title !== undefined) {
  defineGlobal("META_TITLE", data.title);
}
const [harnessScript, ...includes] = data.scripts;
if (harnessScript === undefined) {
  throw new Error("Cannot run a WPT file: no testharness.js given");
}
vm.runInThisContext(readFileSync(harnessScript, "utf8"), { filename: harnessScript });
presentAsDedicatedWorker();
const harness = globalThis as unknown as HarnessApi;
harness.add_result_callback((test) => {
  const result: SubtestResult = {
    name: String(test.name),
    status: SUBTEST_STATUS_NAMES[test.status] ?? "FAIL",
    message: test.message ?? null,
  };
  post({ kind: "subtest", result });
});
harness.add_completion_callback((_tests, status) => {
  const name: HarnessStatus = HARNESS_STATUS_NAMES[status.status] ?? "ERROR";
  post({ kind: "complete", status: name, message: status.message ?? null });
});
port.on("message", (message: RunnerMessage) => {
  if (message.kind === "timeout") {
    harness.timeout();
  }
});
routeUncaughtErrorsToGlobal();
for (const script of [...includes, data.testFile]) {
  evaluateScript(script);
}
