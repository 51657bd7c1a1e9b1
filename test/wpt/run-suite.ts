import { availableParallelism } from "node:os";
import type { Implementation } from "./implementation.ts";
import { loadImplementation } from "./implementation.ts";
import type { FileResult } from "./results.ts";
import { runFile } from "./run-file.ts";
import type { SkippedTestFile } from "./test-discovery.ts";
import { discoverTestFiles } from "./test-discovery.ts";

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  /** Root of the WPT checkout (the directory holding `streams/` and `resources/`). */
  readonly wptDir: string;
  readonly implementation: Implementation;
  /** The module drainpipe is loaded from; `src/streams/index.ts` by default. */
  readonly modulePath?: string | undefined;
  /** Only files whose WPT-relative path contains this string run; the empty string selects all. */
  readonly filter: string;
  /** How many files run at once, each in its own worker thread. */
  readonly jobs: number;
  /** Called after each file finishes, in completion order. */
  readonly onFileDone?: (result: FileResult) => void;
}

/** Everything a suite run produced. */
export interface SuiteResult {
  readonly implementation: Implementation;
  /** One result per file run, sorted by file name. */
  readonly files: readonly FileResult[];
  readonly skipped: readonly SkippedTestFile[];
  /** Stream classes the implementation does not export; tests see them as missing globals. */
  readonly missingExports: readonly string[];
}

/** The default for {@link SuiteOptions.jobs}: one file per available core. */
export const DEFAULT_JOBS = availableParallelism();

/**
 * Runs the selected `streams/**\/*.any.js` files of the WPT checkout against an implementation, `jobs` files at a
 * time. Throws `ImplementationUnavailableError` when drainpipe's entry point is missing or fails to load, and an
 * `Error` when the checkout has no `streams/` directory; failures inside test files are results, not exceptions.
 *
 * @example
 * ```ts
 * const run = await runSuite({ wptDir: "/path/to/wpt", implementation: "native", filter: "", jobs: 2 });
 * ```
 */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const { moduleUrl, missingExports } = await loadImplementation(options.implementation, options.modulePath);
  const { runnable, skipped } = discoverTestFiles(options.wptDir, options.filter);
  const files: FileResult[] = [];
  const queue = [...runnable];
  const lane = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const result = await runFile(file, { wptDir: options.wptDir, moduleUrl });
      files.push(result);
      options.onFileDone?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, lane));
  files.sort((a, b) => a.file.localeCompare(b.file));
  return { implementation: options.implementation, files, skipped, missingExports };
}
