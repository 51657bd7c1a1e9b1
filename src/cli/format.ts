/**
 * Human-readable numbers for the command line's messages: sizes in decimal megabytes, counts with thousands
 * separators, rates, durations.
 *
 * @module
 */

const MB = 1_000_000;

/**
 * A byte count in decimal megabytes with one decimal, or in bytes below 100 kB.
 *
 * @example
 * ```ts
 * formatBytes(8_245_905); // "8.2 MB"
 * formatBytes(512);       // "512 B"
 * ```
 */
export function formatBytes(bytes: number): string {
  return bytes < 100_000 ? `${bytes} B` : `${(bytes / MB).toFixed(1)} MB`;
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
 * Bytes per second as decimal megabytes per second, with one decimal.
 *
 * @example
 * ```ts
 * formatByteRate(10_000_000, 2); // "5.0 MB/s"
 * ```
 */
export function formatByteRate(bytes: number, seconds: number): string {
  return `${(bytes / MB / Math.max(seconds, 1e-6)).toFixed(1)} MB/s`;
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
  return `${formatCount(Math.round(count / Math.max(seconds, 1e-6)))} ${unit}/s`;
}

/**
 * A duration in seconds with two decimals.
 *
 * @example
 * ```ts
 * formatSeconds(1.2345); // "1.23 s"
 * ```
 */
export function formatSeconds(seconds: number): string {
  return `${seconds.toFixed(2)} s`;
}

/**
 * Seconds elapsed since `start`, a `performance.now()` reading.
 *
 * @example
 * ```ts
 * const start = performance.now();
 * await work();
 * secondsSince(start); // 0.42
 * ```
 */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
