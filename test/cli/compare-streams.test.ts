import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { firstDifference } from "../../src/cli/compare-streams.ts";

const encoder = new TextEncoder();

/** `text` as a stream cut into chunks at the given sizes (the rest in one last chunk). */
function chunked(text: string | Uint8Array, sizes: readonly number[] = []): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) chunks.push(bytes.subarray(at));
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe("firstDifference", () => {
  test("is null for equal streams, however they are chunked", async () => {
    expect(await firstDifference(chunked("2\n3\n5\n", [1, 1, 3]), chunked("2\n3\n5\n", [4]))).toBeNull();
    expect(await firstDifference(chunked(""), chunked(""))).toBeNull();
  });

  test("names the offset, line and column of the first differing byte", async () => {
    expect(await firstDifference(chunked("2\n3\n5\n7\n"), chunked("2\n3\n6\n7\n", [3, 2]))).toEqual({
      offset: 4,
      line: 3,
      column: 1,
      expected: 0x35,
      actual: 0x36,
    });
    expect(await firstDifference(chunked("11\n13\n17\n"), chunked("11\n13\n19\n"))).toEqual({
      offset: 7,
      line: 3,
      column: 2,
      expected: 0x37,
      actual: 0x39,
    });
  });

  test("reports where the shorter stream ends", async () => {
    expect(await firstDifference(chunked("2\n3\n"), chunked("2\n3\n5\n"))).toEqual({
      offset: 4,
      line: 3,
      column: 1,
      expected: undefined,
      actual: 0x35,
    });
    expect(await firstDifference(chunked("2\n3\n5"), chunked("2\n3"))).toEqual({
      offset: 3,
      line: 2,
      column: 2,
      expected: 0x0a,
      actual: undefined,
    });
  });

  test("cancels both streams once a difference is found", async () => {
    const cancelled: string[] = [];
    const endless = (name: string, byte: number) =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(1024).fill(byte)),
        cancel: () => void cancelled.push(name),
      });
    expect(await firstDifference(endless("left", 1), endless("right", 2))).toMatchObject({ offset: 0 });
    expect(cancelled.sort()).toEqual(["left", "right"]);
  });

  test("agrees with a byte-by-byte comparison for any content and chunking", async () => {
    const lines = fc.array(fc.constantFrom("1", "2", "\n"), { maxLength: 60 }).map((chars) => chars.join(""));
    const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(lines, lines, sizes, sizes, async (a, b, aSizes, bSizes) => {
        const difference = await firstDifference(chunked(a, aSizes), chunked(b, bSizes));
        let offset = 0;
        while (offset < a.length && offset < b.length && a[offset] === b[offset]) offset++;
        if (a === b) {
          expect(difference).toBeNull();
          return;
        }
        const before = a.slice(0, offset);
        expect(difference).toEqual({
          offset,
          line: before.split("\n").length,
          column: offset - before.lastIndexOf("\n"),
          expected: a.charCodeAt(offset) || undefined,
          actual: b.charCodeAt(offset) || undefined,
        });
      }),
    );
  });
});
