/**
 * Runs one WPT test file in the current realm, whatever the host: installs the implementation under test, evaluates
 * testharness.js, the META includes and the test file, and reports every result through a callback. Used by the
 * Node/Deno/Bun file worker (`file-worker.ts`) and by the workerd file runner (`workerd-file-runner.ts`).
 */

import type { HarnessStatus, SubtestResult, WorkerMessage } from "./results.ts";
import { HARNESS_STATUS_NAMES, SUBTEST_STATUS_NAMES } from "./results.ts";
import { STREAM_CLASS_NAMES } from "./stream-classes.ts";
import {
  defineGlobal,
  hideNativeWorkerScopes,
  makeGlobalWorkerLike,
  presentAsDedicatedWorker,
  reportUncaughtError,
  type WorkerLikeGlobalOptions,
} from "./worker-like-global.ts";

/** A script to evaluate: its source text and the file name stack traces show. */
export interface ScriptSource {
  readonly source: string;
  readonly filename: string;
}

/** What {@link startHarnessSession} needs from its host. */
export interface HarnessSessionOptions extends WorkerLikeGlobalOptions {
  /** testharness.js, the test's META includes and the test file, in evaluation order. */
  readonly scripts: readonly ScriptSource[];
  readonly title: string | undefined;
  /** The implementation's exports, or `null` to keep the runtime's built-in streams. */
  readonly implementation: Record<string, unknown> | null;
  /** Evaluates a classic script in the global scope of this realm (indirect eval); throws what the script throws. */
  readonly evaluate: (script: ScriptSource) => void;
  /** Receives each subtest's result, then the harness status. */
  readonly post: (message: WorkerMessage) => void;
  /** Called once testharness.js is ready, before the includes run: where the host routes its uncaught errors. */
  readonly onHarnessReady?: () => void;
}

/** The slice of testharness.js's `Test` object that result callbacks read. */
interface HarnessTest {
  readonly name: string;
  readonly status: number;
  readonly message: string | null;
}

/** The slice of testharness.js's global API that a session calls. */
interface HarnessApi {
  add_result_callback(callback: (test: HarnessTest) => void): void;
  add_completion_callback(callback: (tests: unknown, status: { status: number; message: string | null }) => void): void;
  timeout(): void;
}

/** A running file: `timeout()` makes testharness.js time out the subtests still running. */
export interface HarnessSession {
  timeout(): void;
}

/**
 * Replaces the runtime's stream classes on the global with the implementation's; a class the implementation lacks is
 * removed rather than left native, so that no test silently exercises the runtime's streams instead.
 */
export function installImplementation(exports: Record<string, unknown>): void {
  for (const name of STREAM_CLASS_NAMES) {
    if (typeof exports[name] === "function") {
      defineGlobal(name, exports[name]);
    } else {
      Reflect.deleteProperty(globalThis, name);
    }
  }
}

/**
 * Sets the global up, evaluates testharness.js (whose own failure is not caught: the host reports it as a crash),
 * then each include and the test file, reporting an exception any of them throws as an uncaught error, as a browser
 * would.
 *
 * @example
 * ```ts
 * const session = startHarnessSession({ scripts, title: undefined, implementation: null, evaluate, post, fetch });
 * setTimeout(() => session.timeout(), 10_000);
 * ```
 */
export function startHarnessSession(options: HarnessSessionOptions): HarnessSession {
  makeGlobalWorkerLike(options);
  if (options.implementation !== null) {
    installImplementation(options.implementation);
  }
  if (options.title !== undefined) {
    defineGlobal("META_TITLE", options.title);
  }
  const [harnessScript, ...includes] = options.scripts;
  if (harnessScript === undefined) {
    throw new Error("Cannot run a WPT file: no testharness.js given");
  }
  hideNativeWorkerScopes();
  options.evaluate(harnessScript);
  presentAsDedicatedWorker();
  const harness = globalThis as unknown as HarnessApi;
  harness.add_result_callback((test) => {
    const result: SubtestResult = {
      name: String(test.name),
      status: SUBTEST_STATUS_NAMES[test.status] ?? "FAIL",
      message: test.message ?? null,
    };
    options.post({ kind: "subtest", result });
  });
  harness.add_completion_callback((_tests, status) => {
    const name: HarnessStatus = HARNESS_STATUS_NAMES[status.status] ?? "ERROR";
    options.post({ kind: "complete", status: name, message: status.message ?? null });
  });
  options.onHarnessReady?.();
  for (const script of includes) {
    try {
      options.evaluate(script);
    } catch (error) {
      reportUncaughtError(error);
    }
  }
  return { timeout: () => harness.timeout() };
}
