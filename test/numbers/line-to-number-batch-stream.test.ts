import { describe, expect, test } from "vitest";
import { LineToNumberBatchStream } from "../../src/numbers/line-to-number-batch-stream.ts";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";
import { ascii, collect, streamOf } from "./support.ts";

describe("LineToNumberBatchStream", () => {
  test("emits one Float64Array per chunk that completes lines, skipping empty ones", async () => {
    const stream = new LineToNumberBatchStream();
    const input = streamOf([ascii("2\n3\n1"), ascii("1"), ascii("\n-13\n"), ascii("17")]);
    const batches = await collect(input.pipeThrough(stream));
    expect(batches.every((batch) => batch instanceof Float64Array)).toBe(true);
    expect(batches.map((batch) => Array.from(batch))).toEqual([[2, 3], [11, -13], [17]]);
    expect(stream.stats).toEqual({ bytes: 13, lines: 5, numbers: 5, canonical: false });
  });

  test("errors the stream with the NumberParseError", async () => {
    const stream = new LineToNumberBatchStream();
    const reading = collect(streamOf([ascii("1\n2\r"), ascii("3\n")]).pipeThrough(stream));
    await expect(reading).rejects.toBeInstanceOf(NumberParseError);
    await expect(reading).rejects.toMatchObject({ reason: "stray-carriage-return", line: 2, column: 2, offset: 3 });
    expect(stream.stats.numbers).toBe(1);
  });
});
