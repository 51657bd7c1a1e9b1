import type { Comparison, Deviation } from "./expectations.ts";
import type { FileResult } from "./results.ts";
import type { SuiteResult } from "./run-suite.ts";

/** Passed and total subtest counts. */
export interface Tally {
  readonly passed: number;
  readonly total: number;
}

/**
 * Counts the passing and total subtests of some files.
 *
 * @example
 * ```ts
 * const { passed, total } = tally(run.files);
 * ```
 */
export function tally(files: readonly FileResult[]): Tally {
  let passed = 0;
  let total = 0;
  for (const file of files) {
    total += file.subtests.length;
    passed += file.subtests.filter((subtest) => subtest.status === "PASS").length;
  }
  return { passed, total };
}

/**
 * Groups tallies by the directory under `streams/` (`piping`, `readable-streams`, ...; files directly in `streams/`
 * count as `streams`), in name order.
 */
export function tallyByDirectory(files: readonly FileResult[]): Map<string, Tally> {
  const groups = new Map<string, FileResult[]>();
  for (const file of files) {
    const parts = file.file.split("/");
    const directory = parts.length > 2 ? (parts[1] ?? "streams") : "streams";
    groups.set(directory, [...(groups.get(directory) ?? []), file]);
  }
  return new Map([...groups.keys()].sort().map((directory) => [directory, tally(groups.get(directory) ?? [])]));
}

/** One line for a finished file: counts, name, and the harness status when it is not `OK`. */
export function formatFileLine(file: FileResult): string {
  const { passed, total } = tally([file]);
  const harness =
    file.harnessStatus === "OK" ? "" : `  [harness ${file.harnessStatus}: ${oneLine(file.harnessMessage)}]`;
  return `${String(passed).padStart(4)}/${String(total).padEnd(4)} ${file.file}${harness}`;
}

/** The summary printed after a run: skipped files, missing exports, totals per directory and overall. */
export function formatSummary(run: SuiteResult): string {
  const lines: string[] = [];
  for (const skipped of run.skipped) {
    lines.push(`skipped ${skipped.name}: ${skipped.reason}`);
  }
  if (run.missingExports.length > 0) {
    lines.push(`the ${run.implementation} implementation does not export: ${run.missingExports.join(", ")}`);
  }
  for (const [directory, { passed, total }] of tallyByDirectory(run.files)) {
    lines.push(`${directory}: ${passed}/${total}`);
  }
  const { passed, total } = tally(run.files);
  const harnessProblems = run.files.filter((file) => file.harnessStatus !== "OK").length;
  lines.push(
    `TOTAL (${run.implementation}): ${passed}/${total} subtests passed in ${run.files.length} files` +
      `, ${harnessProblems} files with a harness status other than OK, ${run.skipped.length} files skipped`,
  );
  return lines.join("\n");
}

/** Every non-passing subtest, one per line, grouped under its file. */
export function formatFailures(files: readonly FileResult[]): string {
  const lines: string[] = [];
  for (const file of files) {
    const failures = file.subtests.filter((subtest) => subtest.status !== "PASS");
    if (failures.length === 0 && file.harnessStatus === "OK") {
      continue;
    }
    lines.push(file.file);
    if (file.harnessStatus !== "OK") {
      lines.push(`  harness ${file.harnessStatus}: ${oneLine(file.harnessMessage)}`);
    }
    for (const failure of failures) {
      lines.push(`  ${failure.status} ${failure.name}: ${oneLine(failure.message)}`);
    }
  }
  return lines.join("\n");
}

/** A deviation from the expectations as one line: `file / subtest: STATUS message`. */
export function formatDeviation(deviation: Deviation): string {
  return `${deviation.file} / ${deviation.name}: ${deviation.status} ${oneLine(deviation.message)}`.trimEnd();
}

/** The report of a comparison with the expectations: regressions first, then entries that should be removed. */
export function formatComparison(comparison: Comparison): string {
  const lines = [`${comparison.unexpectedFailures.length} unexpected failures`];
  lines.push(...comparison.unexpectedFailures.map((deviation) => `  ${formatDeviation(deviation)}`));
  if (comparison.staleExpectations.length > 0) {
    lines.push(`${comparison.staleExpectations.length} expected failures now pass or no longer exist (remove them):`);
    lines.push(...comparison.staleExpectations.map((deviation) => `  ${formatDeviation(deviation)}`));
  }
  return lines.join("\n");
}

function oneLine(message: string | null): string {
  return (message ?? "").replace(/\s+/g, " ").trim();
}

/** One row of {@link formatRuntimeTable}: a runtime's passed subtests per implementation (absent when not run). */
export interface RuntimeRow {
  readonly runtime: string;
  readonly native?: Tally | undefined;
  readonly drainpipe?: Tally | undefined;
}

/**
 * A Markdown table of passed subtests, one row per runtime: native, drainpipe, and the number of subtests.
 *
 * @example
 * ```ts
 * formatRuntimeTable([{ runtime: "node24", native: { passed: 1333, total: 1345 } }]);
 * ```
 */
export function formatRuntimeTable(rows: readonly RuntimeRow[]): string {
  const cell = (value: Tally | undefined): string => (value === undefined ? "–" : value.passed.toLocaleString("en"));
  const lines = ["| runtime | native passed | drainpipe passed | of subtests |", "| --- | ---: | ---: | ---: |"];
  for (const row of rows) {
    const totals = new Set([row.native?.total, row.drainpipe?.total].filter((total) => total !== undefined));
    const total = [...totals].map((value) => value.toLocaleString("en")).join(" / ");
    lines.push(`| ${row.runtime} | ${cell(row.native)} | ${cell(row.drainpipe)} | ${total} |`);
  }
  return lines.join("\n");
}

/**
 * Subtests that pass with the runtime's own streams and not with drainpipe in the same run (files that ran in both).
 *
 * @example
 * ```ts
 * const behind = subtestsBehindNative(nativeRun.files, drainpipeRun.files);
 * ```
 */
export function subtestsBehindNative(
  nativeFiles: readonly FileResult[],
  drainpipeFiles: readonly FileResult[],
): Deviation[] {
  const drainpipeByFile = new Map(drainpipeFiles.map((file) => [file.file, file]));
  const behind: Deviation[] = [];
  for (const nativeFile of nativeFiles) {
    const drainpipeFile = drainpipeByFile.get(nativeFile.file);
    if (drainpipeFile === undefined) {
      continue;
    }
    const outcomes = new Map(drainpipeFile.subtests.map((subtest) => [subtest.name, subtest]));
    for (const subtest of nativeFile.subtests) {
      const outcome = outcomes.get(subtest.name);
      if (subtest.status === "PASS" && outcome?.status !== "PASS") {
        behind.push({
          file: nativeFile.file,
          name: subtest.name,
          status: outcome?.status ?? "MISSING",
          message: outcome?.message ?? null,
        });
      }
    }
  }
  return behind;
}
