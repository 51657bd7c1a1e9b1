/**
 * Progress bars on stderr (with `cli-progress`): done and total, rate and ETA. Shown when stderr is a terminal
 * or when asked for with `--progress`, so scripts and pipes get clean output. The rate is counted as the summary
 * printed after the work counts it: over all the time since the bar started, up to when it stops.
 *
 * @module
 */
import cliProgress from "cli-progress";
import type { Command } from "commander";
import prettyMs from "pretty-ms";
import { formatByteRate, formatBytes, formatCount, formatCountRate } from "./format.ts";
import { RecentRate } from "./recent-rate.ts";

/** A running progress bar. */
export interface Progress {
  /** Sets how much is done, in the bar's unit. */
  update(done: number): void;
  /**
   * Draws the final state as of now (the rate over all the time since the bar started), ends the bar's line, and
   * returns those seconds: what a summary of the same work divides by, so that the two agree. Later calls only
   * return the same seconds, and later updates do nothing.
   */
  stop(): number;
}

/** Options of {@linkcode startProgress}. */
export interface ProgressOptions {
  /** A word in front of the bar, e.g. `upload`. */
  label: string;
  /** The amount that makes 100%; `undefined` when unknown (then the bar shows the amount and the rate only). */
  total: number | undefined;
  /** What is counted: bytes (shown in MB and MB/s) or primes. */
  unit: "bytes" | "primes";
  /** Whether to draw at all (see {@linkcode progressEnabled}); a disabled bar only measures the time. */
  enabled: boolean;
  /** The clock, in milliseconds: `performance.now` unless a test brings its own. */
  now?: (() => number) | undefined;
  /** Where to draw: stderr unless a test brings its own. */
  stream?: NodeJS.WritableStream | undefined;
}

/** How often the bar is redrawn, new data or not, so that its rate and ETA follow the clock while nothing arrives. */
const REDRAW_MS = 500;

/**
 * The span, in seconds, of the rate an ETA rests on: the ETA is the time left at the rate of about the last this many
 * seconds, and unknown (`?`) before that much has passed.
 */
export const ETA_WINDOW_SECONDS = 3;

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
 * Starts a progress bar on stderr: done (and of how much, with the percentage), the rate since the start, and the time
 * left at the recent rate (see {@linkcode ETA_WINDOW_SECONDS}).
 *
 * @example
 * ```ts
 * declare const size: number;
 * const progress = startProgress({ label: "upload", total: size, unit: "bytes", enabled: true });
 * progress.update(1_048_576);
 * const seconds = progress.stop();
 * ```
 */
export function startProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const elapsed = () => Math.max(now() - start, 0) / 1000;
  if (!options.enabled) return { update() {}, stop: elapsed };
  const describe = options.unit === "bytes" ? describeBytes : describePrimes;
  const { total } = options;
  const stream = (options.stream ?? process.stderr) as NodeJS.WritableStream & { isTTY?: boolean };
  const bar = new cliProgress.SingleBar({
    format:
      total === undefined
        ? `${options.label} {done} | {rate}`
        : `${options.label} [{bar}] {percentage}% | {done} / {size} | {rate} | ETA {remaining}`,
    stream,
    noTTYOutput: stream.isTTY !== true,
    barsize: 30,
  });
  const recent = new RecentRate(ETA_WINDOW_SECONDS);
  let done = 0;
  let stopped: number | undefined;
  const draw = (seconds: number) => {
    recent.record(seconds, done);
    const remaining = total === undefined ? "?" : estimateRemaining(total - done, recent.perSecond());
    bar.update(done, { ...describe(done, total ?? done, seconds), remaining });
  };
  bar.start(Math.max(total ?? 0, 1), 0, { ...describe(0, total ?? 0, 0), remaining: "?" });
  const timer = setInterval(() => draw(elapsed()), REDRAW_MS);
  timer.unref();
  return {
    update(value) {
      if (stopped !== undefined) return;
      done = value;
      draw(elapsed());
    },
    stop() {
      if (stopped !== undefined) return stopped;
      clearInterval(timer);
      stopped = elapsed();
      draw(stopped);
      bar.stop();
      return stopped;
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
 * The time left for `left` more at `perSecond`, in whole seconds, e.g. `1m 5s`; `<1s` for less than a second, `0s`
 * once nothing is left, `?` while the rate is unknown or nil.
 *
 * @example
 * ```ts
 * estimateRemaining(50, 10 / 13);  // "1m 5s"
 * estimateRemaining(1, 99);        // "<1s"
 * estimateRemaining(50, undefined); // "?"
 * ```
 */
export function estimateRemaining(left: number, perSecond: number | undefined): string {
  if (left <= 0) return "0s";
  if (perSecond === undefined || perSecond <= 0) return "?";
  const seconds = left / perSecond;
  return seconds < 1 ? "<1s" : prettyMs(Math.round(seconds) * 1000);
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
