import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type Manifest, type ManifestSource, parseManifest } from "../../src/files/manifest.ts";
import { StoreNumbersError, storeLines, storeNumbers } from "../../src/files/store-numbers.ts";
import { LineToNumberBatchStream } from "../../src/numbers/line-to-number-batch-stream.ts";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";
import type { ParseStats } from "../../src/numbers/number-parser.ts";
import { manifestKey } from "../../src/split/object-keys.ts";
import { NumberLimitError } from "../../src/split/part-splitter.ts";
import { listAll } from "../../src/store/list-all.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { ascii, splitAt, streamOf } from "../numbers/support.ts";
import { readBytes } from "../support/bytes.ts";

const MAX = Number.MAX_SAFE_INTEGER;

/** What one way of storing an input left behind: every object's bytes by key, the manifest, or the failure. */
interface Outcome {
  objects: Record<string, string>;
  manifest: Manifest | undefined;
  error: { name: string; message: string; cause: Record<string, unknown> } | undefined;
}

interface Setup {
  maxPartBytes: number;
  maxNumbers?: number;
  lineIndexEvery?: number;
  chunkBytes?: number;
}

async function outcome(store: MemoryStore, run: () => Promise<Manifest>): Promise<Outcome> {
  let manifest: Manifest | undefined;
  let error: Outcome["error"];
  try {
    manifest = await run();
  } catch (failure) {
    if (!(failure instanceof StoreNumbersError)) throw failure;
    const cause = failure.cause as Error;
    const position =
      cause instanceof NumberParseError
        ? { reason: cause.reason, line: cause.line, column: cause.column, offset: cause.offset, byte: cause.byte }
        : {};
    error = { name: cause.name, message: cause.message, cause: position };
  }
  const objects: Record<string, string> = {};
  for await (const { key } of listAll(store, "")) {
    const object = await store.get(key);
    objects[key] = new TextDecoder().decode(await readBytes(object!.body));
  }
  if (manifest) expect(parseManifest(objects[manifestKey(manifest.name)]!)).toEqual(manifest);
  return { objects, manifest, error };
}

/** What the worker's upload route records about its body. */
function uploadSource({ bytes, lines, canonical }: ParseStats): ManifestSource {
  return { kind: "upload", bytes, lines, canonical };
}

/** The re-encoding path: every line parsed into a number, every number encoded into the parts. */
function reencoded(chunks: readonly Uint8Array[], setup: Setup): Promise<Outcome> {
  const store = new MemoryStore();
  return outcome(store, () => {
    const parser = new LineToNumberBatchStream();
    return storeNumbers(streamOf(chunks).pipeThrough(parser), {
      store,
      name: "f",
      uploadId: "u",
      ...setup,
      source: () => uploadSource(parser.stats),
    });
  });
}

/** The canonical pass-through, over the same chunks. */
function passedThrough(chunks: readonly Uint8Array[], setup: Setup, released: Uint8Array[] = []): Promise<Outcome> {
  const store = new MemoryStore();
  return outcome(store, () =>
    storeLines(streamOf(chunks), {
      store,
      name: "f",
      uploadId: "u",
      ...setup,
      releaseChunk: (chunk) => released.push(chunk),
      source: uploadSource,
    }),
  );
}

/** Lines the grammar accepts and encoding gives back as they are. */
const canonicalLine = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.maxSafeInteger().map(String),
  fc.constantFrom(String(MAX), String(-MAX), String(MAX - 1), "0", "9999999999999999".slice(0, 15)),
);

/** Lines the grammar accepts that encoding changes, or drops. */
const nonCanonicalLine = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map((n) => `00${n}`),
  fc.integer({ min: 0, max: 99 }).map((n) => `-0${n}`),
  fc.constantFrom("-0", "", "000", `0${MAX}`, `-000${MAX}`),
);

/** Lines the grammar rejects. */
const badLine = fc.constantFrom(
  "+5",
  "1a",
  "-",
  "--3",
  " 7",
  "7 ",
  "3.0",
  "\r",
  "1\r2",
  String(MAX + 1),
  "9007199254740992",
  `-${"9".repeat(17)}`,
  "é",
);

/** Joins lines with line breaks (`\n` or `\r\n`, per line), with or without a final one. */
function text(lines: readonly string[], crlf: readonly boolean[], finalBreak: boolean): string {
  return lines.map((line, i) => line + (i < lines.length - 1 || finalBreak ? (crlf[i] ? "\r\n" : "\n") : "")).join("");
}

const input = fc
  .record({
    lines: fc.array(
      fc.oneof(
        { arbitrary: canonicalLine, weight: 12 },
        { arbitrary: nonCanonicalLine, weight: 2 },
        { arbitrary: badLine, weight: 1 },
      ),
      { maxLength: 400 },
    ),
    crlf: fc.array(
      fc.nat(9).map((n) => n === 0),
      { maxLength: 400 },
    ),
    finalBreak: fc.boolean(),
    cuts: fc.array(fc.nat(), { maxLength: 12 }),
  })
  .map(({ lines, crlf, finalBreak, cuts }) => splitAt(ascii(text(lines, crlf, finalBreak)), cuts));

describe("storeLines: the canonical pass-through", () => {
  // Both paths' manifests carry their creation time: one fixed clock makes them comparable byte for byte.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 10, 25));
  });
  afterAll(() => vi.useRealTimers());

  test("stores the same objects (line index included), manifest and errors as the re-encoding path", async () => {
    const every = fc.integer({ min: 1, max: 64 });
    await fc.assert(
      fc.asyncProperty(input, fc.constantFrom(1024, 1500, 4096, 1 << 20), every, async (chunks, maxPartBytes, k) => {
        const released: Uint8Array[] = [];
        const expected = await reencoded(chunks, { maxPartBytes, lineIndexEvery: k });
        const actual = await passedThrough(chunks, { maxPartBytes, lineIndexEvery: k }, released);
        expect(actual).toEqual(expected);
        if (!actual.error) expect(released).toEqual(chunks);
      }),
      { numRuns: 300 },
    );
  });

  test("matches on canonical input alone, whatever the chunking, in parts of many lines", async () => {
    const lines = fc.array(canonicalLine, { minLength: 1, maxLength: 2000 });
    await fc.assert(
      fc.asyncProperty(lines, fc.array(fc.nat(), { maxLength: 40 }), async (numbers, cuts) => {
        const chunks = splitAt(ascii(text(numbers, [], true)), cuts);
        const expected = await reencoded(chunks, { maxPartBytes: 1024 });
        expect(expected.manifest?.source).toMatchObject({ canonical: true, lines: numbers.length });
        expect(await passedThrough(chunks, { maxPartBytes: 1024 })).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  test("reports the first bad line at the same line, column and offset", async () => {
    const cases = [
      "1\n2\n+3\n",
      "1\n0\n00\n-\n",
      `1\n${MAX}\n9007199254740992\n`,
      `1\n-${MAX}\n-9007199254740992\n`,
      `12\n${"1".repeat(17)}\n`,
      "1\r\n2\r3\n",
      "5\n\n\nx",
      "5\n6\r",
      "5\n6\n-",
    ];
    for (const source of cases) {
      for (const cut of [0, 1, 2, 3, 5, 8, 13, 21]) {
        const chunks = splitAt(ascii(source), [cut]);
        const expected = await reencoded(chunks, { maxPartBytes: 1024 });
        expect(expected.error?.name).toBe("NumberParseError");
        expect(await passedThrough(chunks, { maxPartBytes: 1024 })).toEqual(expected);
      }
    }
  });

  test("refuses more numbers than maxNumbers as the re-encoding path does", async () => {
    const chunks = splitAt(ascii("1\n2\n3\n04\n5\n"), [4]);
    const expected = await reencoded(chunks, { maxPartBytes: 1024, maxNumbers: 3 });
    expect(expected.error?.name).toBe(new NumberLimitError(3).name);
    expect(await passedThrough(chunks, { maxPartBytes: 1024, maxNumbers: 3 })).toEqual(expected);
  });

  test("a line straddling two multipart chunks is carried whole, as the re-encoding path carries it", async () => {
    // 5 MiB chunks of a 6 MiB part: the line across the first chunk's end is split between two buffers.
    const numbers = Array.from({ length: 800_000 }, (_, i) => String(1_000_003 + i * 7));
    const bytes = ascii(text(numbers, [], true));
    const chunks = splitAt(bytes, [65_536 * 37, 65_536 * 80 + 3, 65_536 * 81]);
    const setup = { maxPartBytes: 6 * 1024 * 1024, chunkBytes: 5 * 1024 * 1024 };
    const expected = await reencoded(chunks, setup);
    expect(expected.manifest?.parts.length).toBe(2);
    expect(await passedThrough(chunks, setup)).toEqual(expected);
  });
});
