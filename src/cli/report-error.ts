import { CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_USAGE } from "./cli-error.ts";
import { printJson } from "./output.ts";

/**
 * The `--json` form of a failure: `{ "error": code, "detail": message, …facts }`, the shape of the worker's error
 * replies (`ErrorBody` of the HTTP contract), so that a script reads the worker's refusals and the CLI's own alike:
 * `error` is always a code, never an object.
 */
export interface JsonFailure {
  /** A stable, machine-readable code: the worker's (`not-found`, `invalid-number`, …) or the CLI's own. */
  error: string;
  /** The message stderr shows, without the `drainpipe: ` in front. */
  detail: string;
  /** Facts beside it: the worker's (`line`, `column`, …), the HTTP `status`, a local `path`. */
  [fact: string]: unknown;
}

/**
 * Reports an error that ended a command: one `drainpipe: <message>` line on stderr for a {@linkcode CliError}
 * (with its exit code), the stack trace for anything unexpected (exit code 1). With `json`, it also writes
 * {@linkcode JsonFailure} on stdout, so scripts read the failure where they read results. A commander error
 * (a malformed command line, which commander has already described on stderr) exits with
 * {@linkcode EXIT_USAGE}, `--help` and `--version` with 0. Sets `process.exitCode`.
 *
 * @example
 * ```ts
 * declare const run: () => Promise<void>;
 * try {
 *   await run();
 * } catch (error) {
 *   reportError(error, { json: process.argv.includes("--json") });
 * }
 * ```
 */
export function reportError(error: unknown, options: { json?: boolean } = {}): void {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    if (options.json && error.exitCode !== 0) {
      printJson(failure("usage", error.message.replace(/^error: /, ""), { commander: error.code }));
    }
    return;
  }
  if (error instanceof CliError) {
    process.stderr.write(`drainpipe: ${error.message}\n`);
    if (options.json) printJson(failure(error.code, error.message, error.details));
    process.exitCode = error.exitCode;
    return;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`drainpipe: unexpected error: ${text}\n`);
  if (options.json) printJson(failure("unexpected", error instanceof Error ? error.message : String(error), {}));
  process.exitCode = EXIT_FAILURE;
}

function failure(code: string, message: string, details: Record<string, unknown>): JsonFailure {
  const { error: _error, detail: _detail, ...facts } = details;
  return { error: code, detail: message, ...facts };
}
