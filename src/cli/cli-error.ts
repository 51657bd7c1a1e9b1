/** Exit code of a failed operation: an error from the worker, an unreachable worker, a missing file, a difference. */
export const EXIT_FAILURE = 1;
/** Exit code of a command line that could not be understood: an unknown option, a malformed argument. */
export const EXIT_USAGE = 2;
/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/**
 * An error the command line reports as one line on stderr (`drainpipe: <message>`) and an exit code, without a
 * stack trace.
 *
 * @example
 * ```ts
 * const error = new CliError(`Cannot read "primes.txt": no such file`);
 * error.exitCode; // EXIT_FAILURE
 * ```
 */
export class CliError extends Error {
  override name = "CliError";
  /** The process exit code to leave with. */
  readonly exitCode: number;

  /** Builds the error; the exit code defaults to {@linkcode EXIT_FAILURE}. */
  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
  }
}

/**
 * A malformed command line that commander could not catch by itself (say, an invalid `--name`); exits with
 * {@linkcode EXIT_USAGE}.
 *
 * @example
 * ```ts
 * new UsageError(`Cannot use --name "../x": it contains '..'`).exitCode; // EXIT_USAGE
 * ```
 */
export class UsageError extends CliError {
  override name = "UsageError";

  /** Builds the error with exit code {@linkcode EXIT_USAGE}. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { exitCode: EXIT_USAGE, cause: options.cause });
  }
}
