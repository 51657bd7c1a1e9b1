import { describe, expect, test } from "vitest";
import { primeBatchStream } from "../../src/numbers/prime-batch-stream.ts";
import { collect } from "./support.ts";

describe("primeBatchStream", () => {
  test("streams the batches of primeBatches", async () => {
    const batches = await collect(primeBatchStream(10, { batchSize: 4 }));
    expect(batches.map((batch) => Array.from(batch))).toEqual([
      [2, 3, 5, 7],
      [11, 13, 17, 19],
      [23, 29],
    ]);
  });

  test("uses 65,536-prime batches by default", async () => {
    const lengths = (await collect(primeBatchStream(100_000))).map((batch) => batch.length);
    expect(lengths).toEqual([65_536, 100_000 - 65_536]);
  });

  test("closes at once for count 0", async () => {
    expect(await collect(primeBatchStream(0))).toEqual([]);
  });

  test("rejects bad arguments at the call", () => {
    expect(() => primeBatchStream(1.5)).toThrow(RangeError);
    expect(() => primeBatchStream(10, { batchSize: -1 })).toThrow(RangeError);
  });
});
