/**
 * Subtest statuses as testharness.js numbers them (`Test.statuses`), by name. Only `PASS` counts as a pass.
 */
export const SUBTEST_STATUS_NAMES = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"] as const;

/** One of {@link SUBTEST_STATUS_NAMES}. */
export type SubtestStatus = (typeof SUBTEST_STATUS_NAMES)[number];

/**
 * Harness statuses as testharness.js numbers them (`TestsStatus.statuses`), by name, plus `CRASH` for a file whose
 * worker died or had to be terminated before testharness reported completion.
 */
export const HARNESS_STATUS_NAMES = ["OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"] as const;

/** One of {@link HARNESS_STATUS_NAMES}, or `CRASH`. */
export type HarnessStatus = (typeof HARNESS_STATUS_NAMES)[number] | "CRASH";

/** The outcome of one subtest (one `test()`, `async_test()` or `promise_test()` call). */
export interface SubtestResult {
  readonly name: string;
  readonly status: SubtestStatus;
  /** testharness's message for a non-passing subtest; `null` when it passed. */
  readonly message: string | null;
}

/** The outcome of one WPT test file. */
export interface FileResult {
  /** Path relative to the WPT root, e.g. `streams/piping/abort.any.js`. */
  readonly file: string;
  readonly harnessStatus: HarnessStatus;
  /** Why the harness status is not `OK` (an uncaught error, a timeout, a crash); `null` when it is `OK`. */
  readonly harnessMessage: string | null;
  readonly subtests: readonly SubtestResult[];
  /** What the file printed through `console` (testharness's own warnings included), for debugging. */
  readonly output: string;
}

/** Messages a file worker posts to the runner. */
export type WorkerMessage =
  | { readonly kind: "subtest"; readonly result: SubtestResult }
  | { readonly kind: "complete"; readonly status: HarnessStatus; readonly message: string | null };

/** Messages the runner posts to a file worker: `timeout` asks testharness to time out the unfinished subtests. */
export type RunnerMessage = { readonly kind: "timeout" };
