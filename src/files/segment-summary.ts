/**
 * What the worker keeps of one received segment of an upload session: enough to answer a client that resumes
 * and to assemble the file's manifest once every segment is there.
 *
 * @module
 */
import type { PartRecord } from "../split/part-splitter.ts";
import type { Manifest } from "./manifest.ts";

/** One received segment of an upload session. */
export interface SegmentSummary {
  /** The segment's index (0-based; the file is the segments in index order). */
  index: number;
  /** Bytes of the segment's body. */
  bytes: number;
  /** Lines of the body, blank ones included. */
  lines: number;
  /** Numbers stored. */
  numbers: number;
  /** The first number, or `null` for a segment without numbers. */
  first: number | null;
  /** The last number, or `null` for a segment without numbers. */
  last: number | null;
  /** Whether the body was canonical (see `ManifestSource`). */
  canonical: boolean;
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
    endsWithLineBreak,
    digest,
    parts,
  };
}
