import { describe, expect, test } from "vitest";
import * as numbers from "../../src/numbers/index.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../src/streams/index.ts";

describe("numbers index", () => {
  test("re-exports the public API", () => {
    expect(Object.keys(numbers).sort()).toEqual([
      "CHUNK_RUN",
      "DEFAULT_PRIME_BATCH_SIZE",
      "DEFAULT_PRIME_TEXT_CHUNK_BYTES",
      "LineRuns",
      "LineToNumberBatchStream",
      "LineToNumberStream",
      "MAX_PRIME_COUNT",
      "NORMALIZED_RUN",
      "NUMBER_RUN",
      "NumberParseError",
      "NumberParser",
      "canonicalLineValue",
      "encodeNumbers",
      "encodeNumbersInto",
      "encodedLineLength",
      "normalizeLines",
      "nthPrimeUpperBound",
      "primeBatchStream",
      "primeBatches",
      "primeStream",
      "primeTextStream",
      "scanCanonicalLines",
    ]);
  });

  test("parses what it encodes, through the exported streams", async () => {
    const batches = new numbers.LineToNumberBatchStream();
    const text = DrainpipeReadableStream.from(numbers.primeTextStream(1000, { chunkBytes: 64 }));
    const reader = text.pipeThrough(batches).getReader();
    const parsed: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parsed.push(...next.value!);
    expect(parsed).toEqual([...numbers.primeBatches(1000)].flatMap((batch) => Array.from(batch)));
    expect(batches.stats).toMatchObject({ numbers: 1000, lines: 1000, canonical: true });
  });
});
