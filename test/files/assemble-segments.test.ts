import { describe, expect, test } from "vitest";
import { assembleSegments, FileLimitError, SegmentsIncompleteError } from "../../src/files/assemble-segments.ts";
import type { SegmentSummary } from "../../src/files/segment-summary.ts";
import type { PartRecord } from "../../src/split/part-splitter.ts";

/** A part of a segment, its index counting within the segment. */
function part(index: number, first: number, last: number, bytes: number, numbers: number): PartRecord {
  return { index, key: `primes/uploads/s1/seg-${first}/part-${index}`, bytes, numbers, first, last, etag: `e${first}` };
}

/** Segment `index` holding `parts`, ending with a line break unless told otherwise. */
function segment(index: number, parts: PartRecord[], overrides: Partial<SegmentSummary> = {}): SegmentSummary {
  const bytes = parts.reduce((sum, p) => sum + p.bytes, 0);
  const numbers = parts.reduce((sum, p) => sum + p.numbers, 0);
  return {
    index,
    bytes,
    lines: numbers,
    numbers,
    first: parts[0]?.first ?? null,
    last: parts.at(-1)?.last ?? null,
    canonical: true,
    sorted: true,
    endsWithLineBreak: true,
    digest: `digest-${index}`,
    parts,
    ...overrides,
  };
}

const LIMITS = { maxBytes: 1_000, maxNumbers: 100 };
const options = (segments: SegmentSummary[], count = segments.length) => ({
  name: "primes",
  uploadId: "s1",
  maxPartBytes: 8,
  count,
  segments,
  ...LIMITS,
});

describe("assembleSegments", () => {
  test("orders the segments by index and numbers their parts across the file", () => {
    const zero = segment(0, [part(0, 2, 5, 6, 3), part(1, 7, 7, 2, 1)]);
    const one = segment(1, [part(0, 11, 13, 6, 2)], { canonical: false, lines: 3 });
    const manifest = assembleSegments(options([one, zero]));
    expect(manifest).toMatchObject({ name: "primes", uploadId: "s1", maxPartBytes: 8 });
    expect(manifest.parts.map((p) => [p.index, p.first, p.last])).toEqual([
      [0, 2, 5],
      [1, 7, 7],
      [2, 11, 13],
    ]);
    expect(manifest.parts.map((p) => p.key)).toEqual([zero.parts[0]!.key, zero.parts[1]!.key, one.parts[0]!.key]);
    expect(manifest.totals).toEqual({ parts: 3, bytes: 14, numbers: 6 });
    expect(manifest.source).toEqual({
      kind: "segments",
      segments: 2,
      bytes: 14,
      lines: 7,
      canonical: false,
      digests: ["digest-0", "digest-1"],
    });
  });

  test("ignores segments at or above the count", () => {
    const manifest = assembleSegments(options([segment(0, [part(0, 2, 3, 4, 2)]), segment(1, [])], 1));
    expect(manifest.source).toMatchObject({ segments: 1, digests: ["digest-0"] });
  });

  test("names every missing index", () => {
    const error = catchError(() => assembleSegments(options([segment(1, [part(0, 2, 3, 4, 2)])], 4)));
    expect(error).toBeInstanceOf(SegmentsIncompleteError);
    expect(error).toMatchObject({ code: "missing-segments", indexes: [0, 2, 3] });
    expect((error as Error).message).toBe("Cannot complete the upload: segments 0, 2, 3 are missing");
  });

  test("refuses a segment other than the last that cuts a line; the last may end without a line break", () => {
    const cut = { endsWithLineBreak: false };
    const segments = [segment(0, [], cut), segment(1, []), segment(2, [], cut), segment(3, [], cut)];
    expect(catchError(() => assembleSegments(options(segments)))).toMatchObject({
      code: "cut-lines",
      indexes: [0, 2],
    });
    const lastCut = [segment(0, [part(0, 2, 3, 4, 2)]), segment(1, [part(0, 5, 5, 1, 1)], cut)];
    expect(assembleSegments(options(lastCut)).totals.numbers).toBe(3);
  });

  test("is sorted when every segment is and each begins at or above where the ones before ended", () => {
    const sorted = (segments: SegmentSummary[]) => assembleSegments(options(segments)).sorted;
    const a = segment(0, [part(0, 1, 5, 4, 2)]);
    expect(sorted([a, segment(1, [part(0, 5, 9, 4, 2)])])).toBe(true);
    expect(sorted([a, segment(1, []), segment(2, [part(0, 6, 9, 4, 2)])])).toBe(true);
    expect(sorted([a, segment(1, [part(0, 4, 9, 4, 2)])])).toBe(false);
    expect(sorted([a, segment(1, []), segment(2, [part(0, 4, 9, 4, 2)])])).toBe(false);
    expect(sorted([a, segment(1, [part(0, 6, 9, 4, 2)], { sorted: false })])).toBe(false);
    // A segment stored before segments recorded their order: the order is not known, unless another rules it out.
    expect(sorted([a, segment(1, [part(0, 6, 9, 4, 2)], { sorted: null })])).toBeNull();
    expect(sorted([segment(0, [part(0, 6, 9, 4, 2)], { sorted: null }), segment(1, [part(0, 4, 9, 4, 2)])])).toBe(
      false,
    );
  });

  test("refuses segments that together exceed the file's byte or number limit, and accepts them at it", () => {
    const big = (bytes: number, numbers: number) => [segment(0, [part(0, 1, 2, bytes, numbers)])];
    expect(() => assembleSegments(options(big(1_001, 1)))).toThrow(FileLimitError);
    expect(() => assembleSegments(options(big(1_001, 1)))).toThrow(
      "Cannot accept more than 1000 bytes in one file (the segments hold 1001)",
    );
    expect(() => assembleSegments(options(big(10, 101)))).toThrow(
      "Cannot accept more than 100 numbers in one file (the segments hold 101)",
    );
    expect(assembleSegments(options(big(1_000, 100))).totals).toMatchObject({ bytes: 1_000, numbers: 100 });
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("Cannot catch an error: the call returned");
}
