/**
 * Timing a run and rounding what the reports print (medians and other statistics come from
 * `simple-statistics`).
 *
 * @module
 */

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
