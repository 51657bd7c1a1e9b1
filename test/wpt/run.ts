/**
 * Command-line runner of the web-platform-tests streams suite; see test/wpt/README.md and `--help`.
 */
import { writeFileSync } from "node:fs";
import { parseCliOptions, USAGE, UsageError } from "./cli-options.ts";
import type { Deviation } from "./expectations.ts";
import {
  compareWithExpectations,
  InvalidExpectationsError,
  loadRuntimeExpectations,
  WHOLE_FILE,
} from "./expectations.ts";
import type { Implementation } from "./implementation.ts";
import { ImplementationUnavailableError } from "./implementation.ts";
import {
  formatComparison,
  formatDeviation,
  formatFailures,
  formatFileLine,
  formatRuntimeTable,
  formatSummary,
  type RuntimeRow,
  subtestsBehindNative,
  tally,
} from "./report.ts";
import type { SuiteResult } from "./run-suite.ts";
import { runSuite } from "./run-suite.ts";
import { type Runtime, runSuiteOnRuntime } from "./runtimes.ts";

const EXIT_FAILURES = 1;
const EXIT_CANNOT_RUN = 2;

/** One suite run: a runtime (or this process) and an implementation. */
interface LabelledRun {
  readonly runtime: string;
  readonly run: SuiteResult;
}

/** The name of the runtime this process is: `deno`, `bun`, or `node` and its major version. */
function currentRuntime(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.deno !== undefined) {
    return "deno";
  }
  if (versions.bun !== undefined) {
    return "bun";
  }
  return `node${process.versions.node.split(".")[0]}`;
}

function everythingPassed(run: SuiteResult): boolean {
  return run.files.every(
    (file) => file.harnessStatus === "OK" && file.subtests.every((subtest) => subtest.status === "PASS"),
  );
}

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const wptDir = process.env.WPT_DIR;
  if (wptDir === undefined || wptDir === "") {
    throw new UsageError("Cannot run the WPT streams suite: WPT_DIR is not set (see test/wpt/README.md)");
  }
  const singleRun = options.runtimes.length === 0 && options.implementations.length === 1;
  const runs: LabelledRun[] = [];
  const runOne = async (runtime: Runtime | undefined, implementation: Implementation): Promise<SuiteResult> => {
    const started = performance.now();
    const common = { wptDir, implementation, modulePath: options.modulePath, filter: options.filter };
    const onFileDone = singleRun
      ? (file: Parameters<typeof formatFileLine>[0]) => console.log(formatFileLine(file))
      : undefined;
    const run =
      runtime === undefined
        ? await runSuite({ ...common, jobs: options.jobs, onFileDone })
        : await runSuiteOnRuntime({ ...common, runtime, jobs: options.jobs });
    const label = runtime ?? currentRuntime();
    runs.push({ runtime: label, run });
    if (!singleRun) {
      const { passed, total } = tally(run.files);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`${label} ${implementation}: ${passed}/${total} subtests passed (${seconds} s)`);
    }
    return run;
  };
  for (const runtime of options.runtimes.length === 0 ? [undefined] : options.runtimes) {
    for (const implementation of options.implementations) {
      await runOne(runtime, implementation);
    }
  }

  let failed = false;
  const rows = new Map<string, { native?: SuiteResult; drainpipe?: SuiteResult }>();
  for (const { runtime, run } of runs) {
    rows.set(runtime, { ...rows.get(runtime), [run.implementation]: run });
    if (options.listFailures) {
      console.log(`-- ${runtime} ${run.implementation}`);
      console.log(formatFailures(run.files));
    }
    console.log(singleRun ? formatSummary(run) : `-- ${runtime} ${formatSummary(run).split("\n").at(-1)}`);
    if (options.expectationsFile !== undefined && run.implementation === "drainpipe") {
      const expectations = loadRuntimeExpectations(options.expectationsFile, runtime);
      const comparison = compareWithExpectations(run.files, expectations);
      console.log(singleRun ? formatComparison(comparison) : `${runtime}: ${formatComparison(comparison)}`);
      failed ||= comparison.unexpectedFailures.length > 0;
    } else if (options.expectationsFile === undefined) {
      failed ||= !everythingPassed(run);
    }
  }
  for (const [runtime, { native, drainpipe }] of rows) {
    if (native !== undefined && drainpipe !== undefined) {
      const expectations =
        options.expectationsFile === undefined ? undefined : loadRuntimeExpectations(options.expectationsFile, runtime);
      const isListed = (deviation: Deviation): boolean => {
        const reasons = expectations?.get(deviation.file);
        return reasons !== undefined && (reasons.has(deviation.name) || reasons.has(WHOLE_FILE));
      };
      const behind = subtestsBehindNative(native.files, drainpipe.files);
      const unexplained = behind.filter((deviation) => !isListed(deviation));
      console.log(
        `${runtime}: ${behind.length} subtests pass with native streams and fail with drainpipe` +
          `, ${behind.length - unexplained.length} of them listed in the expectations`,
      );
      for (const deviation of behind) {
        console.log(`  ${isListed(deviation) ? "(expected) " : ""}${formatDeviation(deviation)}`);
      }
      failed ||= unexplained.length > 0;
    }
  }
  if (!singleRun) {
    const table: RuntimeRow[] = [...rows].map(([runtime, { native, drainpipe }]) => ({
      runtime,
      native: native === undefined ? undefined : tally(native.files),
      drainpipe: drainpipe === undefined ? undefined : tally(drainpipe.files),
    }));
    console.log(formatRuntimeTable(table));
  }
  if (options.jsonOutput !== undefined) {
    const only = runs[0];
    const content = singleRun && only !== undefined ? { wptDir, ...only.run } : { wptDir, runs };
    writeFileSync(options.jsonOutput, `${JSON.stringify(content, null, 2)}\n`);
  }
  return failed ? EXIT_FAILURES : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  const expected =
    error instanceof UsageError ||
    error instanceof ImplementationUnavailableError ||
    error instanceof InvalidExpectationsError;
  if (!expected) {
    throw error;
  }
  console.error(error.message);
  process.exitCode = EXIT_CANNOT_RUN;
}
