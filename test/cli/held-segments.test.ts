import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CliError } from "../../src/cli/cli-error.ts";
import { fileSegmentRanges } from "../../src/cli/file-range.ts";
import { cutSegments, type HeldSegment } from "../../src/cli/held-segments.ts";

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-held-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** `bytes` as chunks of the given sizes (the last one takes the rest). */
async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.byteLength) return;
    yield bytes.slice(at, at + size);
    at += size;
  }
  if (at < bytes.byteLength) yield bytes.slice(at);
}

async function collect(segments: AsyncIterable<HeldSegment>): Promise<HeldSegment[]> {
  const all: HeldSegment[] = [];
  for await (const segment of segments) all.push(segment);
  return all;
}

const encoder = new TextEncoder();

describe("cutSegments", () => {
  test("cuts a stream where fileSegmentRanges cuts a file of the same bytes, however it is chunked", async () => {
    const path = join(directory, "same.txt");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[0-9]{0,12}$/), { maxLength: 300 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { maxLength: 60 }),
        async (lines, lastBreak, segmentBytes, sizes) => {
          const bytes = encoder.encode(lines.join("\n") + (lastBreak && lines.length > 0 ? "\n" : ""));
          await writeFile(path, bytes);
          const ranges = await fileSegmentRanges(path, bytes.byteLength, segmentBytes);
          const cut = await collect(
            cutSegments(chunked(bytes, sizes), { segmentBytes, maxBytes: Number.MAX_SAFE_INTEGER, path: "-" }),
          );
          expect(
            cut.map(({ index, offset, bytes: held }) => ({ index, start: offset, end: offset + held.length })),
          ).toEqual(ranges);
          for (const segment of cut) {
            expect(segment.bytes).toEqual(bytes.subarray(segment.offset, segment.offset + segment.bytes.byteLength));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test("yields each segment as soon as its line break arrives, before reading on", async () => {
    let reads = 0;
    async function* source(): AsyncGenerator<Uint8Array> {
      for (const text of ["11\n22\n", "33\n44\n", "55\n"]) {
        reads++;
        yield encoder.encode(text);
      }
    }
    const segments = cutSegments(source(), { segmentBytes: 3, maxBytes: 100, path: "-" });
    const first = await segments.next();
    expect(new TextDecoder().decode((first.value as HeldSegment).bytes)).toBe("11\n");
    expect(reads).toBe(1);
  });

  test("refuses a segment that outgrows maxBytes, naming it and where it starts", async () => {
    const text = `1\n22\n${"9".repeat(50)}\n2\n`;
    const segments = cutSegments(chunked(encoder.encode(text), [8, 8, 8, 8]), {
      segmentBytes: 4,
      maxBytes: 20,
      path: "-",
    });
    await expect(collect(segments)).rejects.toThrow(CliError);
    const again = cutSegments(chunked(encoder.encode(text), [8, 8, 8, 8]), {
      segmentBytes: 4,
      maxBytes: 20,
      path: "-",
    });
    await expect(collect(again)).rejects.toMatchObject({
      code: "segment-too-large",
      message:
        'Cannot upload "-" in segments of 4 bytes: segment 1 (from byte offset 5) reaches the worker\'s segment ' +
        "limit of 20 bytes with no line break to end at",
    });
  });

  test("refuses a size that is not a positive integer within the limit", async () => {
    const none = (async function* () {})();
    await expect(collect(cutSegments(none, { segmentBytes: 0, maxBytes: 10, path: "-" }))).rejects.toThrow(RangeError);
    await expect(collect(cutSegments(none, { segmentBytes: 11, maxBytes: 10, path: "-" }))).rejects.toThrow(RangeError);
  });
});
