/**
 * The table of a per-chunk pipe comparison (scenarios 1 and 8): which shapes are compared among a set of stream
 * implementations, and, from each one's chunks/s, the columns, rows and speedups of the report.
 *
 * @module
 */

import type { Speedup } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { NATIVE, type StreamsImplementation } from "../implementations/streams-implementation.ts";
import { PIPE_SHAPES, type PipeShape, type ShapeEntry, shapeEntries } from "./chunk-pipe-shapes.ts";

/** One shape's comparison: the shape and what each implementation runs for it. */
export interface ShapeComparison {
  /** The shape the row is about. */
  shape: PipeShape;
  /** The implementations compared, native first (running the stand-in shape for an extension shape). */
  entries: ShapeEntry[];
}

/** Every shape that at least two of `implementations` run (native's stand-in counting for an extension shape). */
export function shapeComparisons(implementations: readonly StreamsImplementation[]): ShapeComparison[] {
  return PIPE_SHAPES.map((shape) => ({ shape, entries: shapeEntries(shape, implementations, NATIVE) })).filter(
    ({ entries }) => entries.length >= 2,
  );
}

/** What {@linkcode chunkPipeTable} makes. */
export interface ChunkPipeTable {
  /** The shape, native's chunks/s, then chunks/s and × native for every other implementation. */
  columns: string[];
  /** One row per comparison; "–" where a rate is missing. */
  rows: Record<string, string | number>[];
  /** Every ratio to native, for the chart. */
  speedups: Speedup[];
}

/**
 * The table of `comparisons` among `implementations`, from `rateOf` (chunks/s of an entry in the comparison of
 * a shape, `undefined` when it was not measured). × native is the implementation's rate ÷ native's.
 *
 * @example
 * ```ts
 * declare const implementations: StreamsImplementation[];
 * const table = chunkPipeTable(implementations, shapeComparisons(implementations), () => 1_000_000);
 * table.rows[0]; // { shape: "pipeTo", "native chunks/s": 1000000, … }
 * ```
 */
export function chunkPipeTable(
  implementations: readonly StreamsImplementation[],
  comparisons: readonly ShapeComparison[],
  rateOf: (shape: PipeShape, entry: ShapeEntry) => number | undefined,
): ChunkPipeTable {
  const others = implementations.filter((implementation) => implementation.name !== NATIVE);
  const speedups: Speedup[] = [];
  const rows = comparisons.map(({ shape, entries }) => {
    const nativeEntry = entries.find((entry) => entry.implementation.name === NATIVE);
    const native = nativeEntry === undefined ? undefined : rateOf(shape, nativeEntry);
    const standIn =
      nativeEntry === undefined || nativeEntry.runs === shape ? "" : ` (native: ${nativeEntry.runs.name})`;
    const row: Record<string, string | number> = { shape: `${shape.name}${standIn}` };
    for (const entry of entries) {
      const { implementation } = entry;
      const rate = rateOf(shape, entry);
      row[`${implementation.name} chunks/s`] = rate === undefined ? "–" : Math.round(rate);
      if (implementation.name !== NATIVE && rate !== undefined && native !== undefined) {
        row[`${implementation.name} × native`] = significant(rate / native);
        speedups.push({ label: `${shape.name}: ${implementation.name}`, value: significant(rate / native) });
      }
    }
    return row;
  });
  const columns = [
    "shape",
    `${NATIVE} chunks/s`,
    ...others.flatMap((implementation) => [`${implementation.name} chunks/s`, `${implementation.name} × native`]),
  ];
  return { columns, rows, speedups };
}
