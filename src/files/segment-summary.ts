/**
 * What the worker keeps of one received segment of an upload session: enough to answer a client that resumes
 * and to assemble the file's manifest once every segment is there.
 *
 * @module
 */
import type { PartRecord } from "../split/part-splitter.ts";
import type { Manifest } from "./manifest.ts";
import {
  booleanField,
  nullableNumberField,
  numberField,
  parseRecord,
  partRecordsField,
  stringField,
} from "./record-format.ts";

/** One received segment of an upload session. */
export interface SegmentSummary {
  /** The segment's index (0-based; the file is the segments in index order). */
  index: number;
  /** Bytes of the segment's body. */
  bytes: number;
  /** Lines of the body, blank ones included. */
  lines: number;
  /** Numbers parsed from the body and stored in the segment's parts. */
  numbers: number;
  /** The first number, or `null` for a segment without numbers. */
  first: number | null;
  /** The last number, or `null` for a segment without numbers. */
  last: number | null;
  /** Whether the body was canonical (see `ManifestSource`). */
  canonical: boolean;
  /**
   * Whether the segment's numbers are non-decreasing, or `null` when not known (a segment stored before manifest
   * version 2, or whose manifest did not say).
   */
  sorted: boolean | null;
  /** Whether the body ends with a line break (or is empty): a segment that does not cuts a line in two. */
  endsWithLineBreak: boolean;
  /** The body's SHA-256, base64. */
  digest: string;
  /** The segment's parts, in order; their `index` counts within the segment. */
  parts: PartRecord[];
}

/**
 * The summary of segment `index` from the manifest its pipeline built (an `upload` source), the body's digest,
 * and whether the body ended with a line break.
 *
 * @example
 * ```ts
 * declare const manifest: Manifest;
 * const summary = summarizeSegment(3, manifest, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", true);
 * summary.numbers === manifest.totals.numbers; // true
 * ```
 */
export function summarizeSegment(
  index: number,
  manifest: Manifest,
  digest: string,
  endsWithLineBreak: boolean,
): SegmentSummary {
  const { source, parts } = manifest;
  if (source.kind !== "upload") throw new TypeError(`Cannot summarize a segment from a ${source.kind} manifest`);
  return {
    index,
    bytes: source.bytes,
    lines: source.lines,
    numbers: manifest.totals.numbers,
    first: parts[0]?.first ?? null,
    last: parts.at(-1)?.last ?? null,
    canonical: source.canonical,
    sorted: manifest.sorted,
    endsWithLineBreak,
    digest,
    parts,
  };
}

/**
 * Reads a segment summary from its JSON (as the coordinator's ledger keeps it) and checks every field's type.
 * Summaries live only in the ledger, so their format is versioned by the ledger's schema version (a change of
 * format comes with a migration of the stored summaries) rather than by a field of their own.
 *
 * @throws {RecordFormatError} "Cannot read segment summary: …" when the text is not JSON or a field is missing
 * or of the wrong type (a JSON error is the `cause`).
 * @example
 * ```ts
 * declare const manifest: Manifest;
 * const summary = summarizeSegment(3, manifest, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", true);
 * parseSegmentSummary(JSON.stringify(summary)).index; // 3
 * ```
 */
export function parseSegmentSummary(text: string): SegmentSummary {
  const what = "segment summary";
  const fields = parseRecord(text, what);
  return {
    index: numberField(fields, "index", what),
    bytes: numberField(fields, "bytes", what),
    lines: numberField(fields, "lines", what),
    numbers: numberField(fields, "numbers", what),
    first: nullableNumberField(fields, "first", what),
    last: nullableNumberField(fields, "last", what),
    canonical: booleanField(fields, "canonical", what),
    sorted: fields.sorted === undefined || fields.sorted === null ? null : booleanField(fields, "sorted", what),
    endsWithLineBreak: booleanField(fields, "endsWithLineBreak", what),
    digest: stringField(fields, "digest", what),
    parts: partRecordsField(fields, "parts", what),
  };
}
