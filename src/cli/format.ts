/**
 * Human-readable numbers for the command line's messages: sizes in decimal units (`pretty-bytes`), counts
 * with thousands separators, rates, durations (`pretty-ms`).
 *
 * @module
 */
import prettyBytes from "pretty-bytes";
import prettyMs from "pretty-ms";

/** The shortest duration rates are computed over, so that an instant operation does not divide by zero. */
export const MIN_SECONDS = 1e-6;

/**
 * A byte count in decimal units with up to three significant digits.
 *
 * @example
 * ```ts
 * formatBytes(8_245_905); // "8.25 MB"
 * formatBytes(512);       // "512 B"
 * ```
 */
export function formatBytes(bytes: number): string {
  return prettyBytes(bytes);
}

/**
 * A count with thousands separators.
 *
 * @example
 * ```ts
 * formatCount(1000000); // "1,000,000"
 * ```
 */
export function formatCount(count: number): string {
  return count.toLocaleString("en");
}

/**
 * A count and a noun, the noun in the plural unless the count is 1.
 *
 * @example
 * ```ts
 * plural(1, "part");           // "1 part"
 * plural(1200, "segment");     // "1,200 segments"
 * plural(2, "entry", "entries"); // "2 entries"
 * ```
 */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nouns}`;
}

/**
 * Seconds rounded to the millisecond, for JSON output.
 *
 * @example
 * ```ts
 * roundSeconds(3.1216101770000004); // 3.122
 * ```
 */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Bytes per second in decimal units.
 *
 * @example
 * ```ts
 * formatByteRate(10_000_000, 2); // "5 MB/s"
 * ```
 */
export function formatByteRate(bytes: number, seconds: number): string {
  return `${prettyBytes(Math.round(bytes / Math.max(seconds, MIN_SECONDS)))}/s`;
}

/**
 * Items per second, rounded, with thousands separators.
 *
 * @example
 * ```ts
 * formatCountRate(1_000_000, 2, "numbers"); // "500,000 numbers/s"
 * ```
 */
export function formatCountRate(count: number, seconds: number, unit: string): string {
  return `${formatCount(Math.round(count / Math.max(seconds, MIN_SECONDS)))} ${unit}/s`;
}

/**
 * A duration given in seconds, in the largest units that fit.
 *
 * @example
 * ```ts
 * formatSeconds(1.2345); // "1.2s"
 * formatSeconds(0.81);   // "810ms"
 * formatSeconds(65.4);   // "1m 5.4s"
 * ```
 */
export function formatSeconds(seconds: number): string {
  return prettyMs(seconds * 1000);
}

/**
 * Seconds elapsed since `start`, a `performance.now()` reading.
 *
 * @example
 * ```ts
 * declare const work: () => Promise<void>;
 * const start = performance.now();
 * await work();
 * secondsSince(start); // 0.42
 * ```
 */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
