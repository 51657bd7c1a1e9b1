import { CliError, EXIT_FAILURE } from "./cli-error.ts";

/**
 * Reports an error that ended a command: one `drainpipe: <message>` line on stderr for a {@linkcode CliError}
 * (with its exit code), the stack trace for anything unexpected (exit code 1). Sets `process.exitCode`.
 *
 * @example
 * ```ts
 * declare const run: () => Promise<void>;
 * try {
 *   await run();
 * } catch (error) {
 *   reportError(error);
 * }
 * ```
 */
export function reportError(error: unknown): void {
  if (error instanceof CliError) {
    process.stderr.write(`drainpipe: ${error.message}\n`);
    process.exitCode = error.exitCode;
    return;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`drainpipe: unexpected error: ${text}\n`);
  process.exitCode = EXIT_FAILURE;
}
