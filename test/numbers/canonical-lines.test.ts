import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type LineMarks, scanCanonicalLines } from "../../src/numbers/canonical-lines.ts";

const MAX = Number.MAX_SAFE_INTEGER;

/** The run a straightforward string-based scan finds in `text` from `from` on, with its marks. */
function referenceScan(text: string, from: number, order: boolean, every: number, next: number) {
  let end = from;
  let lines = 0;
  let sorted = order;
  let last = Number.NEGATIVE_INFINITY;
  let countdown = next;
  const marks: number[] = [];
  for (;;) {
    const lf = text.indexOf("\n", end);
    if (lf < 0) break;
    const line = text.slice(end, lf);
    if (!/^(0|-?[1-9][0-9]*)$/.test(line) || BigInt(line.replace("-", "")) > BigInt(MAX)) break;
    const value = Number(line);
    if (value < last) sorted = false;
    last = value;
    if (countdown === 0) {
      marks.push(end);
      countdown = every - 1;
    } else countdown--;
    end = lf + 1;
    lines++;
  }
  return { end, lines, sorted, marks, next: countdown };
}

describe("scanCanonicalLines", () => {
  // Lines of every kind: short and long (past the word-wise scan's 16 digits and the safe range), canonical or not
  // (leading zeros, "-0", signs, blank lines, \r, other bytes), so that runs end at every position.
  const digits = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
  const line = fc.oneof(
    { weight: 12, arbitrary: fc.nat({ max: 10 ** 9 }).map(String) },
    { weight: 3, arbitrary: fc.integer({ min: -(10 ** 6), max: 10 ** 6 }).map(String) },
    { weight: 2, arbitrary: fc.integer({ min: MAX - 5, max: MAX }).map(String) },
    { weight: 2, arbitrary: fc.bigInt({ min: BigInt(MAX) - 5n, max: BigInt(MAX) + 5n }).map(String) },
    { weight: 2, arbitrary: digits(1, 21) },
    { weight: 1, arbitrary: fc.constantFrom("", "-", "-0", "00", "007", "12\r", "1a", " 1", "+1", "\u00b9") },
  );
  const texts = fc.tuple(
    fc.array(line, { maxLength: 60 }),
    fc.boolean(),
    fc.boolean(),
    fc.string({ unit: fc.constantFrom(..."0123456789-\n"), maxLength: 6 }),
  );

  test("property: finds the run, its order and its marks as a string-based scan does", () => {
    fc.assert(
      fc.property(
        texts,
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(8),
        ([lines, sort, finalBreak, tail], order, every, first) => {
          const sorted = sort ? lines.slice().sort((x, y) => Number(x) - Number(y)) : lines;
          const text = sorted.join("\n") + (finalBreak && sorted.length > 0 ? "\n" : "") + tail;
          // One byte per character (Latin-1), so that "\u00b9" is the byte 0xb9 and string indexes are byte indexes.
          const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
          const next = first % every;
          for (const from of [0, text.indexOf("\n") + 1]) {
            const run = { end: 0, lines: 0, sorted: false };
            const marks: LineMarks = { every, next, offsets: new Int32Array(0), count: 0 };
            scanCanonicalLines(bytes, from, run, order, marks);
            const expected = referenceScan(text, from, order, every, next);
            expect({ ...run, marks: [...marks.offsets.subarray(0, marks.count)], next: marks.next }).toEqual(expected);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("reads the order of long runs of sorted lines of every length", () => {
    const values = Array.from({ length: 2800 }, (_, k) => Math.floor(1.013 ** k));
    const bytes = new TextEncoder().encode(values.map((n) => `${n}\n`).join(""));
    const run = { end: 0, lines: 0, sorted: false };
    scanCanonicalLines(bytes, 0, run, true);
    expect(run).toEqual({ end: bytes.length, lines: 2800, sorted: true });
    // One pair swapped anywhere is found.
    for (const k of [1, 700, 1500, 2799]) {
      const swapped = values.slice();
      [swapped[k - 1], swapped[k]] = [swapped[k]!, swapped[k - 1]!];
      if (swapped[k - 1] === swapped[k]) continue;
      scanCanonicalLines(new TextEncoder().encode(swapped.map((n) => `${n}\n`).join("")), 0, run, true);
      expect(run.sorted).toBe(false);
    }
  });

  test("scans long chunks in one call, whatever line ends the run", () => {
    // 40,000 lines (over 300 KB, a scan of many blocks), with one bad line or a descent at places near and past 16 KiB.
    const values = Array.from({ length: 40_000 }, (_, k) => 1_000_000 + 3 * k);
    for (const at of [2000, 2047, 2048, 39_999]) {
      for (const bad of ["07", "-", "5", "12x"]) {
        const lines = values.map(String);
        lines[at] = bad;
        const text = `${lines.join("\n")}\n`;
        const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
        const run = { end: 0, lines: 0, sorted: false };
        const marks: LineMarks = { every: 512, next: 3, offsets: new Int32Array(0), count: 0 };
        scanCanonicalLines(bytes, 0, run, true, marks);
        const expected = referenceScan(text, 0, true, 512, 3);
        expect({ ...run, marks: [...marks.offsets.subarray(0, marks.count)], next: marks.next }).toEqual(expected);
      }
    }
  });
});
