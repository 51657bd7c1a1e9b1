import { describe, expect, test } from "vitest";
import * as drainpipe from "../../src/streams/index.ts";
import { classesOf, drainpipeImplementations } from "../implementations/streams-implementation.ts";
import { addBytes, bytePool, emptyTally, freshBytes } from "../workloads/matrix-chunks.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";

const native = { name: "native", runtimes: ["node" as const], ...classesOf(globalThis) };
const [plain, batch] = drainpipeImplementations(drainpipe, ["node"]);

describe("the shape matrix", () => {
  test("shape names are unique (the reports key rows by name)", () => {
    expect(new Set(MATRIX_SHAPES.map((shape) => shape.name)).size).toBe(MATRIX_SHAPES.length);
  });

  test.each(MATRIX_SHAPES.map((shape) => [shape.name, shape] as const))("%s tallies as expected", async (_, shape) => {
    for (const implementation of [native, plain!]) {
      expect(await shape.standard(implementation, 300), implementation.name).toEqual(shape.expected(300));
    }
    if (shape.batch) expect(await shape.batch(batch!, 300)).toEqual(shape.expected(300));
  });
});

describe("byte tallies", () => {
  test("pieces cut anywhere tally their bytes with no mismatch", () => {
    const tally = emptyTally();
    for (const [start, length] of [
      [0, 1],
      [1, 300],
      [301, 4096],
      [4397, 3],
    ] as const)
      addBytes(tally, freshBytes(length, start));
    expect(tally).toEqual({ count: 4400, sum: 0 });
  });

  test("a lost or repeated chunk shows as a mismatch", () => {
    const pool = bytePool(100);
    const lost = emptyTally();
    for (const index of [0, 1, 3]) addBytes(lost, pool[index % pool.length]!);
    expect(lost.sum).toBeGreaterThan(0);
    const repeated = emptyTally();
    for (const index of [0, 1, 1]) addBytes(repeated, pool[index % pool.length]!);
    expect(repeated.sum).toBeGreaterThan(0);
  });

  test("a pool repeats its content with the period of the chunk size mod 256", () => {
    expect(bytePool(100)).toHaveLength(64);
    expect(bytePool(8192)).toHaveLength(1);
    expect(bytePool(64)).toHaveLength(4);
  });
});
