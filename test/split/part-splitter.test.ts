import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FileCatalog } from "../../src/files/file-catalog.ts";
import { storeNumbers } from "../../src/files/store-numbers.ts";
import { LineToNumberBatchStream } from "../../src/numbers/line-to-number-batch-stream.ts";
import { LineToNumberStream } from "../../src/numbers/line-to-number-stream.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { newUploadId } from "../../src/split/object-keys.ts";
import { MAX_PARTS, NumberLimitError, PartLimitError, PartSplitter } from "../../src/split/part-splitter.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../src/streams/index.ts";
import { chunkedStream, readBytes } from "../support/bytes.ts";

const safeInteger = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);

describe("parse → encode → split round trips", () => {
  test("any safe integers, any chunking, any part size: content is identical and parts obey the rules", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(safeInteger, { maxLength: 1500 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 60 }),
        fc.integer({ min: 1024, max: 4096 }),
        fc.boolean(),
        async (numbers, chunkSizes, maxPartBytes, perNumber) => {
          const input = encodeNumbers(numbers);
          const store = new MemoryStore();
          const bytes = DrainpipeReadableStream.from(chunkedStream(input, chunkSizes));
          const parser = perNumber ? new LineToNumberStream() : new LineToNumberBatchStream();
          const options = {
            store,
            name: "prop",
            maxPartBytes,
            source: () =>
              ({
                kind: "upload",
                bytes: parser.stats.bytes,
                lines: parser.stats.lines,
                canonical: parser.stats.canonical,
              }) as const,
          };
          const manifest =
            parser instanceof LineToNumberStream
              ? await storeNumbers(bytes.pipeThrough(parser), options)
              : await storeNumbers(bytes.pipeThrough(parser), options);
          expect(manifest.source).toEqual({
            kind: "upload",
            bytes: input.length,
            lines: numbers.length,
            canonical: true,
          });
          expect(await readBytes(new FileCatalog(store).content(manifest))).toEqual(input);
          expect(manifest.totals).toEqual({
            parts: manifest.parts.length,
            bytes: input.length,
            numbers: numbers.length,
          });
          let index = 0;
          for (const part of manifest.parts) {
            expect(part.bytes).toBeLessThanOrEqual(maxPartBytes);
            expect(part.first).toBe(numbers[index]);
            index += part.numbers;
            expect(part.last).toBe(numbers[index - 1]);
            const next = numbers[index];
            if (next !== undefined) expect(part.bytes + encodeNumbers([next]).length).toBeGreaterThan(maxPartBytes);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("PartSplitter", () => {
  const options = () => ({ store: new MemoryStore(), name: "s", uploadId: newUploadId(), maxPartBytes: 1024 });

  test("write returns no promise while uploads have room", () => {
    const splitter = new PartSplitter(options());
    expect(splitter.write([1, 2, 3])).toBeUndefined();
    expect(splitter.numbers).toBe(3);
    expect(splitter.bytes).toBe(6);
  });

  test("refuses a write past maxNumbers with NumberLimitError", () => {
    const splitter = new PartSplitter({ ...options(), maxNumbers: 5 });
    expect(splitter.write([1, 2, 3])).toBeUndefined();
    expect(() => splitter.write([4, 5, 6])).toThrow(NumberLimitError);
    expect(splitter.numbers).toBe(3);
  });

  test(`refuses to open part ${MAX_PARTS + 1} with PartLimitError`, async () => {
    const splitter = new PartSplitter(options());
    // Lines of 8 bytes: 128 of them fill a 1,024-byte part.
    const part = Array.from({ length: 128 }, () => 1_234_567);
    let error: unknown;
    let written = 0;
    try {
      for (; written <= MAX_PARTS; written++) await splitter.write(part);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PartLimitError);
    expect(written).toBe(MAX_PARTS);
  });

  test("writeLines without what a scan found stores what writing the numbers stores, line index included", async () => {
    // Every object, parts and line index: the same keys (one upload id) and bytes.
    const stored = (store: MemoryStore) =>
      Promise.all(store.keys().map(async (key) => [key, await readBytes((await store.get(key))!.body)]));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.maxSafeInteger()), { maxLength: 400 }),
        fc.boolean(),
        fc.array(fc.nat(400), { maxLength: 5 }),
        fc.integer({ min: 1, max: 9 }),
        async (values, sort, cuts, every) => {
          const numbers = sort ? values.sort((x, y) => x - y) : values;
          const uploadId = newUploadId();
          const setup = { name: "s", uploadId, maxPartBytes: 1024, lineIndexEvery: every };
          const [numbersStore, linesStore] = [new MemoryStore(), new MemoryStore()];
          const byNumbers = new PartSplitter({ ...setup, store: numbersStore });
          const byLines = new PartSplitter({ ...setup, store: linesStore });
          await byNumbers.write(numbers);
          let from = 0;
          for (const cut of [...cuts.sort((x, y) => x - y), numbers.length]) {
            const to = Math.min(Math.max(cut, from), numbers.length);
            await byLines.writeLines(encodeNumbers(numbers.slice(from, to)), to - from);
            from = to;
          }
          expect(await byLines.close()).toEqual(await byNumbers.close());
          expect(byLines.sorted).toBe(byNumbers.sorted);
          expect(await stored(linesStore)).toEqual(await stored(numbersStore));
        },
      ),
      { numRuns: 200 },
    );
  });

  test("property: sorted follows every number written, in any batches, between lines written as they are", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -50, max: 9_999_999 }), { maxLength: 500 }),
        fc.boolean(),
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 40 }), asLines: fc.boolean() }), { minLength: 1 }),
        fc.integer({ min: 1, max: 9 }),
        async (values, sortFirst, writes, lineIndexEvery) => {
          const numbers = sortFirst ? [...values].sort((a, b) => a - b) : values;
          const splitter = new PartSplitter({ ...options(), maxPartBytes: 1024, lineIndexEvery });
          for (let at = 0, k = 0; at < numbers.length; k++) {
            const { size, asLines } = writes[k % writes.length]!;
            const batch = numbers.slice(at, at + size);
            at += batch.length;
            const written = asLines
              ? splitter.writeLines(encodeNumbers(batch), batch.length)
              : splitter.write(Float64Array.from(batch));
            if (written) await written;
            const soFar = numbers.slice(0, at);
            expect(splitter.sorted).toBe(soFar.every((n, i) => i === 0 || soFar[i - 1]! <= n));
          }
          const parts = await splitter.close();
          expect(parts.reduce((sum, part) => sum + part.numbers, 0)).toBe(numbers.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  test("writeLines refuses lines not in canonical form, and marks that miss indexed lines", () => {
    const splitter = new PartSplitter({ ...options(), lineIndexEvery: 2 });
    const ascii = (text: string) => new TextEncoder().encode(text);
    expect(() => splitter.writeLines(ascii("1\n02\n"), 2)).toThrow(/Cannot write lines: expected 2 complete lines/);
    expect(() => splitter.writeLines(ascii("1\n2"), 2)).toThrow(RangeError);
    expect(() => splitter.writeLines(ascii("1\n2\n"), 3)).toThrow(RangeError);
    // Lines 0 and 2 of "1\n2\n3\n" are indexed (every 2nd from 0): two marks, not one.
    expect(() => splitter.writeLines(ascii("1\n2\n3\n"), 3, true, [0])).toThrow(/hold 2 indexed lines, but 1/);
    expect(splitter.writeLines(ascii("1\n2\n3\n"), 3, true, [0, 4])).toBeUndefined();
    expect(splitter.numbers).toBe(3);
  });

  test("refuses values that are not safe integers", () => {
    const splitter = new PartSplitter(options());
    expect(() => splitter.write([1, 2.5])).toThrow(RangeError);
  });

  test("refuses writes after close and invalid options", async () => {
    const splitter = new PartSplitter(options());
    await splitter.close();
    expect(() => splitter.write([1])).toThrow(/Cannot write: the splitter is closed/);
    expect(() => new PartSplitter({ ...options(), maxPartBytes: 10 })).toThrow(RangeError);
    expect(() => new PartSplitter({ ...options(), chunkBytes: 1024 })).toThrow(/chunkBytes/);
    expect(() => new PartSplitter({ ...options(), maxInFlight: 0 })).toThrow(/uploads in flight/);
  });

  test("bounds uploads in flight: a slow store makes write wait", async () => {
    const gates: (() => void)[] = [];
    let holding = true;
    const inner = new MemoryStore();
    const store = Object.assign(Object.create(inner) as MemoryStore, {
      put: async (key: string, data: Uint8Array) => {
        if (holding) await new Promise<void>((resolve) => gates.push(resolve));
        return inner.put(key, data);
      },
    });
    const splitter = new PartSplitter({ ...options(), store, maxInFlight: 2 });
    const batch = Array.from({ length: 200 }, (_, i) => 10_000 + i);
    expect(splitter.write(batch)).toBeUndefined();
    expect(splitter.write(batch)).toBeUndefined();
    const waiting = splitter.write(batch);
    expect(waiting).toBeInstanceOf(Promise);
    let resumed = false;
    void waiting!.then(() => {
      resumed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(gates.length).toBe(2);
    expect(resumed).toBe(false);
    holding = false;
    gates.shift()!();
    await waiting;
    expect(resumed).toBe(true);
    gates.shift()!();
    const parts = await splitter.close();
    expect(parts.map((part) => part.numbers)).toEqual([170, 170, 170, 90]);
    expect(parts.reduce((sum, part) => sum + part.numbers, 0)).toBe(600);
  });
});
