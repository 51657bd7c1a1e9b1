import { existsSync, readFileSync } from "node:fs";
import type { FileResult } from "./results.ts";

/**
 * Known failures, read from a JSON file shaped
 * `{ "<file relative to the WPT root>": { "<subtest name>": "<why it fails>" } }`.
 * The subtest name {@link WHOLE_FILE} stands for every subtest of the file, and {@link HARNESS_ENTRY} for a harness
 * status other than `OK` (an uncaught error, a timeout or a crash of the file).
 */
export type Expectations = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Subtest name that, in an expectations file, marks every subtest of a file as expected to fail. */
export const WHOLE_FILE = "*";

/** Subtest name under which a file's non-`OK` harness status is reported and can be expected. */
export const HARNESS_ENTRY = "(harness status)";

/** One subtest (or harness status) whose outcome differs from the expectations. */
export interface Deviation {
  readonly file: string;
  readonly name: string;
  /** The status it got: a subtest or harness status, or `MISSING` for an expected failure that no longer exists. */
  readonly status: string;
  readonly message: string | null;
}

/** The outcome of {@link compareWithExpectations}. */
export interface Comparison {
  /** Failures not listed in the expectations: regressions, which should fail CI. */
  readonly unexpectedFailures: readonly Deviation[];
  /** Listed failures that passed or no longer exist: the entry should be removed from the expectations. */
  readonly staleExpectations: readonly Deviation[];
}

/** Error raised when an expectations file is not valid. */
export class InvalidExpectationsError extends Error {
  override readonly name = "InvalidExpectationsError";
}

/**
 * Reads and validates an expectations file: every entry must give a non-empty reason.
 *
 * @example
 * ```ts
 * const expectations = loadExpectations("test/wpt/expectations.json");
 * expectations.get("streams/readable-streams/owning-type.any.js")?.get("*"); // the reason, if listed
 * ```
 */
export function loadExpectations(file: string): Expectations {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InvalidExpectationsError(`Cannot read expectations from ${file}`, { cause: error });
  }
  if (!isRecord(parsed)) {
    throw new InvalidExpectationsError(`Cannot read expectations from ${file}: the top level is not an object`);
  }
  const expectations = new Map<string, Map<string, string>>();
  for (const [testFile, entries] of Object.entries(parsed)) {
    if (!isRecord(entries)) {
      throw new InvalidExpectationsError(`Cannot read expectations from ${file}: entry ${testFile} is not an object`);
    }
    const reasons = new Map<string, string>();
    for (const [subtest, reason] of Object.entries(entries)) {
      if (typeof reason !== "string" || reason.trim() === "") {
        throw new InvalidExpectationsError(
          `Cannot read expectations from ${file}: ${testFile} / ${subtest} has no written reason`,
        );
      }
      reasons.set(subtest, reason);
    }
    expectations.set(testFile, reasons);
  }
  return expectations;
}

/**
 * The expectations of one runtime: those of `file` (which hold on every runtime) and, when it exists, those of the
 * file next to it named for the runtime (`expectations.node20.json` beside `expectations.json`), which list what
 * that runtime itself cannot support.
 *
 * @example
 * ```ts
 * const expectations = loadRuntimeExpectations("test/wpt/expectations.json", "node20");
 * ```
 */
export function loadRuntimeExpectations(file: string, runtime: string): Expectations {
  const merged = new Map<string, Map<string, string>>();
  const runtimeFile = file.replace(/\.json$/, `.${runtime}.json`);
  for (const source of runtimeFile !== file && existsSync(runtimeFile) ? [file, runtimeFile] : [file]) {
    for (const [testFile, reasons] of loadExpectations(source)) {
      merged.set(testFile, new Map([...(merged.get(testFile) ?? []), ...reasons]));
    }
  }
  return merged;
}

/**
 * Whether the expectations explain a non-passing subtest: listed by name in its file, or the whole file listed
 * through {@link WHOLE_FILE}.
 *
 * @example
 * ```ts
 * isExplained(expectations, "readable-streams/from.any.js", "ReadableStream.from accepts a string");
 * ```
 */
export function isExplained(expectations: Expectations, file: string, name: string): boolean {
  const reasons = expectations.get(file);
  return reasons !== undefined && (reasons.has(name) || reasons.has(WHOLE_FILE));
}

/**
 * The deviations (e.g. the subtests behind native's) that the expectations do not explain.
 *
 * @example
 * ```ts
 * const unexplained = unexplainedDeviations(subtestsBehindNative(native.files, drainpipe.files), expectations);
 * ```
 */
export function unexplainedDeviations(deviations: readonly Deviation[], expectations: Expectations): Deviation[] {
  return deviations.filter((deviation) => !isExplained(expectations, deviation.file, deviation.name));
}

/**
 * Compares a run's results with the expectations: every non-passing subtest must be listed (by name or through
 * {@link WHOLE_FILE}), and every listed subtest of a file that ran should still fail. Files that did not run (because
 * of a filter) are not judged.
 *
 * @example
 * ```ts
 * const { unexpectedFailures } = compareWithExpectations(run.files, loadExpectations("test/wpt/expectations.json"));
 * if (unexpectedFailures.length > 0) process.exitCode = 1;
 * ```
 */
export function compareWithExpectations(files: readonly FileResult[], expectations: Expectations): Comparison {
  const unexpectedFailures: Deviation[] = [];
  const staleExpectations: Deviation[] = [];
  for (const result of files) {
    const expected = expectations.get(result.file) ?? new Map<string, string>();
    const outcomes = new Map<string, Deviation>(
      result.subtests.map((subtest) => [subtest.name, { file: result.file, ...subtest }]),
    );
    if (result.harnessStatus !== "OK") {
      outcomes.set(HARNESS_ENTRY, {
        file: result.file,
        name: HARNESS_ENTRY,
        status: result.harnessStatus,
        message: result.harnessMessage,
      });
    }
    for (const outcome of outcomes.values()) {
      if (outcome.status !== "PASS" && !isExplained(expectations, result.file, outcome.name)) {
        unexpectedFailures.push(outcome);
      }
    }
    for (const name of expected.keys()) {
      if (name === WHOLE_FILE) {
        continue;
      }
      const outcome = outcomes.get(name);
      if (outcome === undefined) {
        staleExpectations.push({ file: result.file, name, status: "MISSING", message: null });
      } else if (outcome.status === "PASS") {
        staleExpectations.push(outcome);
      }
    }
  }
  return { unexpectedFailures, staleExpectations };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
