/**
 * Turns the received segments of an upload session into the file's manifest, once they make a whole file.
 *
 * @module
 */
import { MAX_PARTS } from "../split/part-splitter.ts";
import { buildManifest, type Manifest } from "./manifest.ts";
import type { SegmentSummary } from "./segment-summary.ts";

/** Why segments do not make a file yet: some are missing, or some cut a line in two. */
export class SegmentsIncompleteError extends Error {
  override name = "SegmentsIncompleteError";
  /** `missing-segments` or `cut-lines`. */
  readonly code: "missing-segments" | "cut-lines";
  /** The segments missing, or those whose body does not end with a line break, in index order. */
  readonly indexes: number[];

  /** Builds the error for `indexes`. */
  constructor(code: "missing-segments" | "cut-lines", indexes: number[]) {
    const list = indexes.join(", ");
    super(
      code === "missing-segments"
        ? `Cannot complete the upload: segments ${list} are missing`
        : `Cannot complete the upload: segments ${list} do not end with a line break (a line would be cut in two)`,
    );
    this.code = code;
    this.indexes = indexes;
  }
}

/** A limit of the whole file that the segments together exceed. */
export class FileLimitError extends Error {
  override name = "FileLimitError";
}

/** What {@linkcode assembleSegments} needs. */
export interface AssembleOptions {
  /** The file name. */
  name: string;
  /** The session's upload id: the version's id once published. */
  uploadId: string;
  /** The part size limit of the session. */
  maxPartBytes: number;
  /** How many segments the file has: 0 … count − 1. */
  count: number;
  /** The received segments (any order; indexes at or above `count` are ignored). */
  segments: readonly SegmentSummary[];
  /** Largest file in bytes. */
  maxBytes: number;
  /** Most numbers in a file. */
  maxNumbers: number;
}

/**
 * The manifest of the file made of segments 0 … count − 1: their parts in order, numbered across the file.
 *
 * @throws {SegmentsIncompleteError} when a segment is missing, or one but the last does not end with a line break.
 * @throws {FileLimitError} when the segments together exceed `maxBytes`, `maxNumbers` or `MAX_PARTS` parts.
 * @example
 * ```ts
 * import type { SegmentSummary } from "./segment-summary.ts";
 * declare const segments: SegmentSummary[];
 * const manifest = assembleSegments({
 *   name: "primes", uploadId: "s1", maxPartBytes: 1 << 20, count: 2, segments, maxBytes: 1e9, maxNumbers: 1e8,
 * });
 * manifest.source.kind; // "segments"
 * ```
 */
export function assembleSegments(options: AssembleOptions): Manifest {
  const byIndex = new Map(options.segments.map((segment) => [segment.index, segment]));
  const ordered: SegmentSummary[] = [];
  const missing: number[] = [];
  for (let index = 0; index < options.count; index++) {
    const segment = byIndex.get(index);
    if (segment) ordered.push(segment);
    else missing.push(index);
  }
  if (missing.length > 0) throw new SegmentsIncompleteError("missing-segments", missing);
  const cut = ordered.slice(0, -1).filter((segment) => !segment.endsWithLineBreak);
  if (cut.length > 0)
    throw new SegmentsIncompleteError(
      "cut-lines",
      cut.map((segment) => segment.index),
    );
  const bytes = ordered.reduce((sum, segment) => sum + segment.bytes, 0);
  const numbers = ordered.reduce((sum, segment) => sum + segment.numbers, 0);
  if (bytes > options.maxBytes) {
    throw new FileLimitError(
      `Cannot accept more than ${options.maxBytes} bytes in one file (the segments hold ${bytes})`,
    );
  }
  if (numbers > options.maxNumbers) {
    throw new FileLimitError(
      `Cannot accept more than ${options.maxNumbers} numbers in one file (the segments hold ${numbers})`,
    );
  }
  const parts = ordered.flatMap((segment) => segment.parts).map((part, index) => ({ ...part, index }));
  if (parts.length > MAX_PARTS) {
    throw new FileLimitError(
      `Cannot accept more than ${MAX_PARTS} parts in one file (the segments hold ${parts.length}): ` +
        "send it again in a session with a larger maxPartBytes",
    );
  }
  return buildManifest({
    sorted: segmentsSorted(ordered),
    name: options.name,
    uploadId: options.uploadId,
    maxPartBytes: options.maxPartBytes,
    parts,
    source: {
      kind: "segments",
      segments: ordered.length,
      bytes,
      lines: ordered.reduce((sum, segment) => sum + segment.lines, 0),
      canonical: ordered.every((segment) => segment.canonical),
      digests: ordered.map((segment) => segment.digest),
    },
  });
}

/**
 * Whether the segments' numbers, in order, are non-decreasing: each segment is, and each begins at or above where the
 * segments before it ended; `null` (not known) when a segment's order is not known but none is out of order.
 */
function segmentsSorted(ordered: readonly SegmentSummary[]): boolean | null {
  let last = Number.NEGATIVE_INFINITY;
  let known = true;
  for (const segment of ordered) {
    if (segment.sorted === false) return false;
    if (segment.sorted === null) known = false;
    if (segment.first === null || segment.last === null) continue;
    if (segment.first < last) return false;
    last = segment.last;
  }
  return known ? true : null;
}
