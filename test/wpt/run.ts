/**
 * Command-line runner of the web-platform-tests streams suite; see test/wpt/README.md and `--help`.
 */
import { writeFileSync } from "node:fs";
import { parseCliOptions, USAGE, UsageError } from "./cli-options.ts";
import { compareWithExpectations, InvalidExpectationsError, loadExpectations } from "./expectations.ts";
import { ImplementationUnavailableError } from "./implementation.ts";
import { formatComparison, formatFailures, formatFileLine, formatSummary } from "./report.ts";
import { runSuite } from "./run-suite.ts";

const EXIT_FAILURES = 1;
const EXIT_CANNOT_RUN = 2;

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
  const expectations = options.expectationsFile === undefined ? undefined : loadExpectations(options.expectationsFile);
  const run = await runSuite({
    wptDir,
    implementation: options.implementation,
    filter: options.filter,
    jobs: options.jobs,
    onFileDone: (file) => console.log(formatFileLine(file)),
  });
  if (options.listFailures) {
    console.log(formatFailures(run.files));
  }
  console.log(formatSummary(run));
  if (options.jsonOutput !== undefined) {
    writeFileSync(options.jsonOutput, `${JSON.stringify({ wptDir, ...run }, null, 2)}\n`);
  }
  if (expectations !== undefined) {
    const comparison = compareWithExpectations(run.files, expectations);
    console.log(formatComparison(comparison));
    return comparison.unexpectedFailures.length > 0 ? EXIT_FAILURES : 0;
  }
  const everythingPassed = run.files.every(
    (file) => file.harnessStatus === "OK" && file.subtests.every((subtest) => subtest.status === "PASS"),
  );
  return everythingPassed ? 0 : EXIT_FAILURES;
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
