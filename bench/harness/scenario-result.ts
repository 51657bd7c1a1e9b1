/**
 * The shape every scenario reports in: one table (the JSON, markdown and chart are made from it), the output
 * checks it ran, and the speedups the chart shows.
 *
 * @module
 */

/** One output check: whether a variant's output was exactly what it had to be. */
export interface OutputCheck {
  /** The variant checked. */
  variant: string;
  /** Whether the output matched (byte-identical, or the exact counts expected). */
  ok: boolean;
  /** What was compared, e.g. "parts joined = input (88.9 MB)". */
  detail: string;
}

/** A bar of the speedup chart: how many times faster `label` ran than the scenario's baseline. */
export interface Speedup {
  /** The bar's label. */
  label: string;
  /** Ours: the measured ratio (baseline time / variant time). */
  value: number;
  /** A published ratio to draw next to ours, when there is one. */
  published?: number;
}

/** What one scenario measured in one run of the benchmarks. */
export interface ScenarioResult {
  /** Short id, e.g. "number-pipeline". */
  id: string;
  /** The table's heading. */
  title: string;
  /** The runtime it ran in, e.g. "node 24.21.0" or "workerd 1.20261117.1". */
  runtime: string;
  /** The column names, in order. */
  columns: string[];
  /** The rows, keyed by column name. */
  rows: Record<string, string | number>[];
  /** Sentences printed under the table: sizes, methods, caveats. */
  notes: string[];
  /** The bars of the chart. */
  speedups: Speedup[];
  /** The output checks that ran. */
  checks: OutputCheck[];
}
