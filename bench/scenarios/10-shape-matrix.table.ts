/**
 * Scenario 10's measurements of one runtime, and the table made of them: chunks/s of every row on every shape
 * (median over rounds of each process's best run), drainpipe's ratios to the runtime's own streams, to
 * experimental-fast-webstreams and to `node:stream/iter`, and one output check per shape comparing every row's
 * tally.
 *
 * @module
 */
import { median } from "simple-statistics";
import type { OutputCheck, ScenarioResult, Speedup } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { NATIVE } from "../implementations/streams-implementation.ts";
import type { Tally } from "../workloads/matrix-chunks.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";
import { BATCH, DRAINPIPE, FAST, type ShapeReport, STREAM_ITER } from "./10-shape-matrix.rows.ts";

/** Everything measured in one runtime. */
export interface MatrixMeasurement {
  /** The runtime's id, e.g. `node24` or `workerd`. */
  id: string;
  /** The runtime column: name and version. */
  label: string;
  /** The matrix's `count` there. */
  count: number;
  /** The rows measured, in table order. */
  rows: readonly string[];
  /** Each round's time of a row on a shape, ms: `samples.get(row)?.get(shape)`. */
  samples: Map<string, Map<string, number[]>>;
  /** The last tally of a row on a shape. */
  tallies: Map<string, Map<string, Tally>>;
  /** The shapes a row lacks a feature for. */
  unsupported: Map<string, Set<string>>;
  /** What failed: `<row>, <shape>: <why>`, or a whole process. */
  failures: string[];
  /** How it was measured, the first notes. */
  notes: string[];
}

/** An empty measurement of `rows` in runtime `id`. */
export function newMeasurement(
  id: string,
  label: string,
  count: number,
  rows: readonly string[],
  notes: string[],
): MatrixMeasurement {
  return {
    id,
    label,
    count,
    rows,
    samples: new Map(),
    tallies: new Map(),
    unsupported: new Map(),
    failures: [],
    notes,
  };
}

/** The entry of `map` at `key`, created by `create` when missing. */
function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const created = create();
  map.set(key, created);
  return created;
}

/**
 * Adds what `row` reported on one shape to `measurement`, with `ms`, the round's time, when there is one to count.
 */
export function recordShape(
  measurement: MatrixMeasurement,
  row: string,
  report: ShapeReport,
  ms: number | undefined,
): void {
  if (report.unsupported) entry(measurement.unsupported, row, () => new Set()).add(report.shape);
  if (report.failure) measurement.failures.push(`${row}, ${report.shape}: ${report.failure}`);
  if (report.tally) entry(measurement.tallies, row, () => new Map()).set(report.shape, report.tally);
  if (ms !== undefined && report.failure === undefined) {
    entry(
      entry(measurement.samples, row, () => new Map()),
      report.shape,
      () => [],
    ).push(ms);
  }
}

/** Chunks/s of `row` on shape `index` of the matrix, or `undefined` when not measured. */
function rateOf(measurement: MatrixMeasurement, row: string, shape: number): number | undefined {
  const { name, chunks } = MATRIX_SHAPES[shape]!;
  const times = measurement.samples.get(row)?.get(name);
  if (times === undefined || times.length === 0) return undefined;
  const ms = median(times);
  return ms > 0 ? chunks(measurement.count) / (ms / 1000) : undefined;
}

/** What the rows run, for the notes. */
const SHAPES_NOTE =
  "Every standard row runs the same code (bench/workloads/matrix-shapes.ts, written once against the " +
  "implementation's classes). Value chunks are numbers, summed; byte chunks are position-coded and checked at " +
  "every piece's ends. Sources enqueue one chunk per pull with the default strategy unless the shape says " +
  "otherwise; transforms are identities. drainpipe readMany/writev runs the same work with drainpipe's batch API " +
  "where a shape has such a variant: readMany loops in place of reader loops (also as the push consumer), sinks " +
  "with writev (and a high-water mark of 1,024 where the shape sets none, as the README's writev example has: a " +
  "sink that asks for one chunk at a time gets no batches) in place of plain sinks. " +
  "node:stream/iter (Node 26, --experimental-stream-iter) runs the three " +
  "100 B shapes as from(generator) iterated, pull(from(generator), t, t, t) iterated, and push() with an awaited " +
  "write per chunk iterated.";

/** The ratio columns: a numerator row, a denominator row, the column's name. */
const RATIOS: readonly [string, string, string][] = [
  [DRAINPIPE, NATIVE, "drainpipe ÷ native"],
  [DRAINPIPE, FAST, "drainpipe ÷ fast-webstreams"],
  [BATCH, NATIVE, "readMany/writev ÷ native"],
  [DRAINPIPE, STREAM_ITER, "drainpipe ÷ stream/iter"],
  [BATCH, STREAM_ITER, "readMany/writev ÷ stream/iter"],
];

/** The output check of one shape: every row's runs had the expected tally, so every row's equals the others'. */
function shapeCheck(measurement: MatrixMeasurement, shape: number): OutputCheck {
  const { name, expected } = MATRIX_SHAPES[shape]!;
  const want = expected(measurement.count);
  const failures = measurement.failures.filter((failure) => failure.includes(`, ${name}: `));
  const rows = measurement.rows.filter((row) => measurement.tallies.get(row)?.has(name));
  const differing = rows.filter((row) => {
    const tally = measurement.tallies.get(row)!.get(name)!;
    return tally.count !== want.count || tally.sum !== want.sum;
  });
  return {
    variant: `${measurement.id}: ${name}`,
    ok: failures.length === 0 && differing.length === 0 && rows.length > 0,
    detail:
      failures.length > 0
        ? failures.join("; ")
        : `every run of ${rows.join(", ") || "no row"} tallied ${want.count}/${want.sum} (count/sum), the same ` +
          "across implementations",
  };
}

/** The cell of `row` on shape `index`: chunks/s, or why there is none. */
function cell(measurement: MatrixMeasurement, row: string, shape: number): string | number {
  const name = MATRIX_SHAPES[shape]!.name;
  const rate = rateOf(measurement, row, shape);
  if (rate !== undefined) return Math.round(rate);
  if (measurement.unsupported.get(row)?.has(name)) return "unsupported";
  if (measurement.failures.some((failure) => failure.startsWith(`${row}, ${name}: `))) return "failed";
  return "–";
}

/**
 * What the notes say about the noise: how far a cell's rounds spread, (max − min) ÷ median, for the median cell and
 * the widest one.
 */
function spreadNote(measurement: MatrixMeasurement): string | undefined {
  const spreads: { name: string; spread: number }[] = [];
  for (const [row, shapes] of measurement.samples) {
    for (const [shape, times] of shapes) {
      if (times.length < 2 || median(times) <= 0) continue;
      spreads.push({ name: `${row}, ${shape}`, spread: (Math.max(...times) - Math.min(...times)) / median(times) });
    }
  }
  if (spreads.length === 0) return undefined;
  const widest = spreads.reduce((a, b) => (b.spread > a.spread ? b : a));
  const typical = median(spreads.map(({ spread }) => spread));
  return (
    `Spread of a cell's rounds, (max − min) ÷ median: ${significant(typical * 100, 2)} % for the median cell, ` +
    `${significant(widest.spread * 100, 2)} % at most (${widest.name}).`
  );
}

/** Scenario 10's table for one runtime. */
export function matrixResult(measurement: MatrixMeasurement): ScenarioResult {
  const ratios = RATIOS.filter(([top, bottom]) => measurement.rows.includes(top) && measurement.rows.includes(bottom));
  const speedups: Speedup[] = [];
  const rows = MATRIX_SHAPES.map(({ name }, shape) => {
    const row: Record<string, string | number> = { shape: name };
    for (const implementation of measurement.rows)
      row[`${implementation} chunks/s`] = cell(measurement, implementation, shape);
    for (const [top, bottom, column] of ratios) {
      const over = rateOf(measurement, top, shape);
      const under = rateOf(measurement, bottom, shape);
      row[column] = over === undefined || under === undefined ? "–" : significant(over / under);
      if (column === "drainpipe ÷ native" && over !== undefined && under !== undefined)
        speedups.push({ label: name, value: significant(over / under) });
    }
    return row;
  });
  const spread = spreadNote(measurement);
  const processFailures = measurement.failures.filter((failure) => failure.startsWith("process "));
  const checks = MATRIX_SHAPES.map((_, shape) => shapeCheck(measurement, shape));
  if (processFailures.length > 0)
    checks.push({ variant: `${measurement.id}: processes`, ok: false, detail: processFailures.join("; ") });
  return {
    id: `shape-matrix-${measurement.id}`,
    title: `shape matrix (${measurement.id}), count ${measurement.count.toLocaleString("en")}`,
    runtime: measurement.label,
    columns: ["shape", ...measurement.rows.map((row) => `${row} chunks/s`), ...ratios.map(([, , column]) => column)],
    rows,
    notes: [
      ...measurement.notes,
      SHAPES_NOTE,
      "A ÷ B = A's chunks/s ÷ B's (above 1: A faster). \"–\": the row has no variant of the shape (or, in " +
        'workerd, its request took no longer than the ping\'s); "unsupported": the implementation lacks what the ' +
        "shape needs.",
      ...(spread === undefined ? [] : [spread]),
      ...processFailures,
    ],
    speedups,
    checks,
  };
}
