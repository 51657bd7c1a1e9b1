/**
 * Progress bars on stderr (with `cli-progress`): done and total, rate and ETA. Shown when stderr is a terminal
 * or when asked for with `--progress`, so scripts and pipes get clean output.
 *
 * @module
 */
import cliProgress from "cli-progress";
import type { Command } from "commander";
import prettyMs from "pretty-ms";
import { formatByteRate, formatBytes, formatCount, formatCountRate, secondsSince } from "./format.ts";

/** A running progress bar. */
export interface Progress {
  /** Sets how much is done, in the bar's unit. */
  update(done: number): void;
  /** Draws the final state and ends the bar's line. */
  stop(): void;
}

/** Options of {@linkcode startProgress}. */
export interface ProgressOptions {
  /** A word in front of the bar, e.g. `upload`. */
  label: string;
  /** The amount that makes 100%; `undefined` when unknown (then the bar shows the amount and the rate only). */
  total: number | undefined;
  /** What is counted: bytes (shown in MB and MB/s) or primes. */
  unit: "bytes" | "primes";
  /** Whether to draw at all (see {@linkcode progressEnabled}); a disabled bar does nothing. */
  enabled: boolean;
}

/**
 * Adds `--progress` and `--no-progress` to `command`; read them with {@linkcode progressEnabled}.
 *
 * @example
 * ```ts
 * import type { Command } from "commander";
 * declare const program: Command;
 * addProgressOptions(program.command("get")).action(async (options: { progress?: boolean }) => {
 *   const enabled = progressEnabled(options.progress);
 * });
 * ```
 */
export function addProgressOptions(command: Command): Command {
  return command
    .option("--progress", "show a progress bar on stderr even when it is not a terminal")
    .option("--no-progress", "never show a progress bar");
}

/**
 * Whether progress bars are drawn: as `--progress` / `--no-progress` say, else when stderr is a terminal.
 *
 * @example
 * ```ts
 * progressEnabled(false); // false
 * // Unset: a bar when stderr is a terminal, none in a pipe.
 * progressEnabled(undefined) === (process.stderr.isTTY === true); // true
 * ```
 */
export function progressEnabled(flag: boolean | undefined): boolean {
  return flag ?? process.stderr.isTTY === true;
}

/**
 * Starts a progress bar on stderr.
 *
 * @example
 * ```ts
 * declare const size: number;
 * const progress = startProgress({ label: "upload", total: size, unit: "bytes", enabled: true });
 * progress.update(1_048_576);
 * progress.stop();
 * ```
 */
export function startProgress(options: ProgressOptions): Progress {
  if (!options.enabled) return { update() {}, stop() {} };
  const start = performance.now();
  const describe = options.unit === "bytes" ? describeBytes : describePrimes;
  const { total } = options;
  const bar = new cliProgress.SingleBar({
    format:
      total === undefined
        ? `${options.label} {done} | {rate}`
        : `${options.label} [{bar}] {percentage}% | {done} / {size} | {rate} | ETA {remaining}`,
    stream: process.stderr,
    noTTYOutput: process.stderr.isTTY !== true,
    barsize: 30,
  });
  const payload = (done: number) => {
    const seconds = secondsSince(start);
    const remaining = total === undefined ? "?" : estimateRemaining(done, total, seconds);
    return { ...describe(done, total ?? done, seconds), remaining };
  };
  bar.start(Math.max(total ?? 0, 1), 0, payload(0));
  return {
    update(done) {
      bar.update(done, payload(done));
    },
    stop() {
      bar.stop();
    },
  };
}

/**
 * Passes `stream` through unchanged, calling `onBytes` with the running byte count after each chunk.
 *
 * @example
 * ```ts
 * import type { FileStream } from "./local-file.ts";
 * declare const file: FileStream;
 * declare const progress: Progress;
 * const counted = countBytes(file.stream, (bytes) => progress.update(bytes));
 * ```
 */
export function countBytes(
  stream: ReadableStream<Uint8Array>,
  onBytes: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  let bytes = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        onBytes(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The time left at the average rate so far in whole seconds, e.g. `1m 5s`; `<1s` for less than a second, `0s`
 * once all is done, `?` before anything is.
 *
 * @example
 * ```ts
 * estimateRemaining(50, 100, 65); // "1m 5s"
 * estimateRemaining(99, 100, 1);  // "<1s"
 * ```
 */
export function estimateRemaining(done: number, total: number, seconds: number): string {
  if (done >= total) return "0s";
  if (done <= 0 || seconds <= 0) return "?";
  const left = ((total - done) * seconds) / done;
  return left < 1 ? "<1s" : prettyMs(Math.round(left) * 1000);
}

function describeBytes(done: number, total: number, seconds: number): Record<string, string> {
  return { done: formatBytes(done), size: formatBytes(total), rate: formatByteRate(done, seconds) };
}

function describePrimes(done: number, total: number, seconds: number): Record<string, string> {
  return {
    done: formatCount(done),
    size: `${formatCount(total)} primes`,
    rate: formatCountRate(done, seconds, "primes"),
  };
}
