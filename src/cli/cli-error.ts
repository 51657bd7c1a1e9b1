/** Exit code of a failed operation: an error from the worker, an unreachable worker, a missing file, a difference. */
export const EXIT_FAILURE = 1;
/** Exit code of a command line that could not be understood: an unknown option, a malformed argument. */
export const EXIT_USAGE = 2;
/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** Options of {@linkcode CliError}. */
export interface CliErrorOptions {
  /** The process exit code; {@linkcode EXIT_FAILURE} when absent. */
  exitCode?: number | undefined;
  /** A stable, machine-readable code for `--json` (`failed` when absent). */
  code?: string | undefined;
  /** Facts for `--json` beside the code and message (say, the line and column of bad input). */
  details?: Record<string, unknown> | undefined;
  /** The error this one reports. */
  cause?: unknown;
}

/**
 * An error the command line reports as one line on stderr (`drainpipe: <message>`) and an exit code, without a
 * stack trace; with `--json`, also as `{ "error": code, "detail": message, …details }` on stdout.
 *
 * @example
 * ```ts
 * const error = new CliError(`Cannot read "primes.txt": no such file`, { code: "no-such-file" });
 * error.exitCode; // EXIT_FAILURE
 * ```
 */
export class CliError extends Error {
  override name = "CliError";
  /** The process exit code to leave with. */
  readonly exitCode: number;
  /** A stable, machine-readable code, e.g. `no-such-file` or the worker's `invalid-number`. */
  readonly code: string;
  /** Facts that `--json` reports beside the code and the message. */
  readonly details: Record<string, unknown>;

  /** Builds the error; the exit code defaults to {@linkcode EXIT_FAILURE}, the code to `failed`. */
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
    this.code = options.code ?? "failed";
    this.details = options.details ?? {};
  }
}

/**
 * A malformed command line that commander could not catch by itself (say, an invalid `--name`); exits with
 * {@linkcode EXIT_USAGE}, code `usage` unless given another.
 *
 * @example
 * ```ts
 * new UsageError(`Cannot use --name "../x": it contains '..'`).exitCode; // EXIT_USAGE
 * ```
 */
export class UsageError extends CliError {
  override name = "UsageError";

  /** Builds the error with exit code {@linkcode EXIT_USAGE}. */
  constructor(message: string, options: Omit<CliErrorOptions, "exitCode"> = {}) {
    super(message, { ...options, exitCode: EXIT_USAGE, code: options.code ?? "usage" });
  }
}
