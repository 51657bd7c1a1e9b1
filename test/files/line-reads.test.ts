import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FileCatalog } from "../../src/files/file-catalog.ts";
import {
  LineIndexMissingError,
  linePieces,
  linePiecesCalls,
  MAX_LINES_COUNT,
  NotSortedError,
} from "../../src/files/line-reads.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { storeLines, storeNumbers } from "../../src/files/store-numbers.ts";
import { LineToNumberBatchStream } from "../../src/numbers/line-to-number-batch-stream.ts";
import { LINE_INDEX_ENTRY_BYTES, lineIndexEntries } from "../../src/split/line-index.ts";
import { lineIndexKey } from "../../src/split/object-keys.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { ascii, splitAt, streamOf } from "../numbers/support.ts";

/** How a file is stored: its numbers, part size, index spacing, chunk cuts and which upload path. */
interface Stored {
  numbers: number[];
  maxPartBytes: number;
  lineIndexEvery: number;
  cuts: number[];
  path: "lines" | "numbers";
}

async function store(stored: Stored): Promise<{ store: MemoryStore; manifest: Manifest }> {
  const memory = new MemoryStore();
  const chunks = splitAt(ascii(stored.numbers.map((n) => `${n}\n`).join("")), stored.cuts);
  const options = {
    store: memory,
    name: "f",
    maxPartBytes: stored.maxPartBytes,
    lineIndexEvery: stored.lineIndexEvery,
  };
  const manifest =
    stored.path === "lines"
      ? await storeLines(streamOf(chunks), { ...options, source: () => ({ kind: "primes", count: 0 }) })
      : await storeNumbers(streamOf(chunks).pipeThrough(new LineToNumberBatchStream()), {
          ...options,
          source: () => ({ kind: "primes", count: 0 }),
        });
  return { store: memory, manifest };
}

const text = (numbers: readonly number[]): string => numbers.map((n) => `${n}\n`).join("");

const storedFile = (numbers: fc.Arbitrary<number[]>): fc.Arbitrary<Stored> =>
  fc.record({
    numbers,
    maxPartBytes: fc.integer({ min: 1024, max: 3000 }),
    lineIndexEvery: fc.integer({ min: 1, max: 40 }),
    cuts: fc.array(fc.nat(12_000), { maxLength: 8 }),
    path: fc.constantFrom("lines" as const, "numbers" as const),
  });

const anyNumbers = fc.array(fc.integer({ min: -100_000, max: 100_000 }), { maxLength: 1500 });
const sortedNumbers = anyNumbers.map((numbers) => numbers.sort((a, b) => a - b));

describe("FileCatalog.lines", () => {
  test("answers lines from … from + count − 1 of the source, for both upload paths", async () => {
    await fc.assert(
      fc.asyncProperty(
        storedFile(anyNumbers),
        fc.nat(1520),
        fc.integer({ min: 1, max: 400 }),
        async (stored, from, count) => {
          const { store: memory, manifest } = await store(stored);
          const catalog = new FileCatalog(memory);
          const read = await catalog.lines(manifest, from, count);
          const expected = stored.numbers.slice(from, from + count);
          expect(new TextDecoder().decode(read.bytes)).toBe(text(expected));
          expect(read).toMatchObject({ from, count: expected.length, total: stored.numbers.length });
        },
      ),
      { numRuns: 150 },
    );
  });

  test("answers the first and last line of every part, and each part whole", async () => {
    await fc.assert(
      fc.asyncProperty(storedFile(anyNumbers), async (stored) => {
        const { store: memory, manifest } = await store(stored);
        const catalog = new FileCatalog(memory);
        let start = 0;
        for (const part of manifest.parts) {
          for (const line of [start, start + part.numbers - 1]) {
            const read = await catalog.lines(manifest, line, 1);
            expect(new TextDecoder().decode(read.bytes)).toBe(`${stored.numbers[line]}\n`);
          }
          const whole = await catalog.lines(manifest, start, part.numbers);
          expect(new TextDecoder().decode(whole.bytes)).toBe(text(stored.numbers.slice(start, start + part.numbers)));
          start += part.numbers;
        }
      }),
      { numRuns: 60 },
    );
  });

  test("records an index entry every lineIndexEvery lines of each part, at the line's offset", async () => {
    await fc.assert(
      fc.asyncProperty(storedFile(anyNumbers), async (stored) => {
        const { store: memory, manifest } = await store(stored);
        const index = await memory.get(lineIndexKey("f", manifest.uploadId));
        const entries = manifest.parts.reduce(
          (sum, part) => sum + lineIndexEntries(part.numbers, stored.lineIndexEvery, part.lineIndexFirst!),
          0,
        );
        expect(index === null ? 0 : ((await index.body.getReader().read()).value?.length ?? 0)).toBe(
          entries * LINE_INDEX_ENTRY_BYTES,
        );
      }),
      { numRuns: 60 },
    );
  });

  test("refuses a bad from or count, and a file stored before line indexes", async () => {
    const { manifest } = await store({
      numbers: [1, 2, 3],
      maxPartBytes: 1024,
      lineIndexEvery: 2,
      cuts: [],
      path: "lines",
    });
    expect(() => linePieces(manifest, -1, 1)).toThrow(RangeError);
    expect(() => linePieces(manifest, 0.5, 1)).toThrow(RangeError);
    expect(() => linePieces(manifest, 0, 0)).toThrow(RangeError);
    expect(() => linePieces(manifest, 0, MAX_LINES_COUNT + 1)).toThrow(
      `Cannot read ${MAX_LINES_COUNT + 1} lines: expected a whole number from 1 to ${MAX_LINES_COUNT}`,
    );
    expect(linePieces(manifest, 3, 1)).toEqual([]);
    expect(() => linePieces({ ...manifest, lineIndexEvery: null }, 0, 1)).toThrow(LineIndexMissingError);
  });

  test("a part stored before line indexes (an old segment of a session) is read from its start", async () => {
    const numbers = Array.from({ length: 3000 }, (_, i) => i);
    const { store: memory, manifest } = await store({
      numbers,
      maxPartBytes: 4096,
      lineIndexEvery: 16,
      cuts: [],
      path: "lines",
    });
    const older = { ...manifest, parts: manifest.parts.map(({ lineIndex: _i, lineIndexFirst: _f, ...part }) => part) };
    const read = await new FileCatalog(memory).lines(older, 1500, 3);
    expect(new TextDecoder().decode(read.bytes)).toBe("1500\n1501\n1502\n");
    expect(linePiecesCalls(older, linePieces(older, 1500, 3))).toBe(1);
  });

  test("a short read inside one part takes one index read and one byte range", async () => {
    const numbers = Array.from({ length: 5000 }, (_, i) => 1000 + i);
    const { manifest } = await store({ numbers, maxPartBytes: 8192, lineIndexEvery: 64, cuts: [], path: "lines" });
    const pieces = linePieces(manifest, 3000, 5);
    expect(pieces).toHaveLength(1);
    expect(linePiecesCalls(manifest, pieces)).toBe(2);
    // Lines across a part boundary: each piece takes at most one index read and one byte range.
    const start = manifest.parts[0]!.numbers - 2;
    const across = linePieces(manifest, start, 5);
    expect(across.map((piece) => piece.part.index)).toEqual([0, 1]);
    expect(linePiecesCalls(manifest, across)).toBe(4);
    // A file of fewer lines than the index spacing has no index: one byte range.
    const small = await store({ numbers: [1, 2, 3], maxPartBytes: 1024, lineIndexEvery: 64, cuts: [], path: "lines" });
    expect(linePiecesCalls(small.manifest, linePieces(small.manifest, 1, 1))).toBe(1);
  });
});

describe("FileCatalog.search", () => {
  test("finds the first line at or above the value, as a linear search does", async () => {
    await fc.assert(
      fc.asyncProperty(
        storedFile(sortedNumbers),
        fc.integer({ min: -110_000, max: 110_000 }),
        async (stored, value) => {
          const { store: memory, manifest } = await store(stored);
          expect(manifest.sorted).toBe(true);
          const found = await new FileCatalog(memory).search(manifest, value);
          const index = stored.numbers.findIndex((n) => n >= value);
          if (index < 0) expect(found).toEqual({ index: stored.numbers.length, value: null, found: false });
          else expect(found).toEqual({ index, value: stored.numbers[index], found: stored.numbers[index] === value });
        },
      ),
      { numRuns: 150 },
    );
  });

  test("finds every number of the file", async () => {
    await fc.assert(
      fc.asyncProperty(storedFile(sortedNumbers), async (stored) => {
        const { store: memory, manifest } = await store(stored);
        const catalog = new FileCatalog(memory);
        for (const [i, n] of stored.numbers.entries()) {
          if (i > 0 && stored.numbers[i - 1] === n) continue;
          expect(await catalog.search(manifest, n)).toEqual({ index: i, value: n, found: true });
        }
      }),
      { numRuns: 30 },
    );
  });

  test("records whether a file is non-decreasing, and refuses to search one that is not", async () => {
    await fc.assert(
      fc.asyncProperty(storedFile(anyNumbers), async (stored) => {
        const { store: memory, manifest } = await store(stored);
        const sorted = stored.numbers.every((n, i) => i === 0 || stored.numbers[i - 1]! <= n);
        expect(manifest.sorted).toBe(sorted);
        if (!sorted) await expect(new FileCatalog(memory).search(manifest, 0)).rejects.toThrow(NotSortedError);
      }),
      { numRuns: 100 },
    );
  });

  test("follows the order of big numbers too, whether lines are canonical, normalised or parsed", async () => {
    const big = fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }));
    await fc.assert(
      fc.asyncProperty(fc.array(big, { minLength: 2, maxLength: 200 }), fc.boolean(), async (numbers, sort) => {
        const values = sort ? numbers.sort((x, y) => x - y) : numbers;
        const sorted = values.every((n, i) => i === 0 || values[i - 1]! <= n);
        for (const ending of ["\n", "\r\n"]) {
          const memory = new MemoryStore();
          const body = ascii(values.map((n) => `${n}${ending}`).join(""));
          const options = { store: memory, name: "f", maxPartBytes: 1024, lineIndexEvery: 7 };
          const manifest = await storeLines(streamOf([body]), {
            ...options,
            source: () => ({ kind: "primes", count: 0 }),
          });
          expect(manifest.sorted).toBe(sorted);
          if (sorted) {
            const last = values.at(-1)!;
            expect(await new FileCatalog(memory).search(manifest, last)).toEqual({
              index: values.indexOf(last),
              value: last,
              found: true,
            });
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  test("refuses a value that is not a safe integer", async () => {
    const { store: memory, manifest } = await store({
      numbers: [1, 2],
      maxPartBytes: 1024,
      lineIndexEvery: 2,
      cuts: [],
      path: "lines",
    });
    const catalog = new FileCatalog(memory);
    await expect(catalog.search(manifest, 2 ** 53)).rejects.toThrow(RangeError);
    await expect(catalog.search(manifest, 1.5)).rejects.toThrow(RangeError);
    await expect(catalog.search({ ...manifest, sorted: null }, 1)).rejects.toThrow(LineIndexMissingError);
  });
});
