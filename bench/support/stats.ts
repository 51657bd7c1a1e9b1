/**
 * Summaries of repeated measurements: medians and the ratios the reports print.
 *
 * @module
 */

/**
 * The median of `values` (the mean of the two middle values for an even count).
 *
 * @throws {RangeError} when `values` is empty.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("Cannot take the median: there are no values");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs `task` once and returns how long it took in milliseconds, with its result.
 *
 * @example
 * ```ts
 * const { ms, value } = await timed(() => work());
 * ```
 */
export async function timed<T>(task: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await task();
  return { ms: performance.now() - start, value };
}

/**
 * Rounds `value` to `digits` significant digits, for compact JSON and tables.
 *
 * @example
 * ```ts
 * significant(1234.5678, 3); // 1230
 * ```
 */
export function significant(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}
