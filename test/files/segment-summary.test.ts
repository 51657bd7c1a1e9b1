import { describe, expect, test } from "vitest";
import { buildManifest } from "../../src/files/manifest.ts";
import { RecordFormatError } from "../../src/files/record-format.ts";
import { parseSegmentSummary, type SegmentSummary, summarizeSegment } from "../../src/files/segment-summary.ts";

const part = { index: 0, key: "p/uploads/u1/part-00000000", bytes: 4, numbers: 2, first: 2, last: 3, etag: "e0" };
const source = { kind: "upload", bytes: 4, lines: 2, canonical: true } as const;
const manifest = buildManifest({ name: "p", uploadId: "u1", maxPartBytes: 1024, source, parts: [part], sorted: true });

describe("parseSegmentSummary", () => {
  const summary: SegmentSummary = summarizeSegment(3, manifest, "digest", true);

  test("reads back a summary as written", () => {
    expect(parseSegmentSummary(JSON.stringify(summary))).toEqual(summary);
    const empty = { ...summary, first: null, last: null, parts: [] };
    expect(parseSegmentSummary(JSON.stringify(empty))).toEqual(empty);
    // A summary stored before segments recorded their order reads as of unknown order.
    const { sorted: _sorted, ...older } = summary;
    expect(parseSegmentSummary(JSON.stringify(older))).toEqual({ ...summary, sorted: null });
  });

  test("refuses a field of the wrong type", () => {
    const text = JSON.stringify({ ...summary, endsWithLineBreak: "yes" });
    expect(() => parseSegmentSummary(text)).toThrow(
      new RecordFormatError('Cannot read segment summary: "endsWithLineBreak" must be true or false'),
    );
  });
});
