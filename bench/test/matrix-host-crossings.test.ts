import { describe, expect, test } from "vitest";
import { bytePool, emptyTally, freshBytes } from "../workloads/matrix-chunks.ts";
import { addText } from "../workloads/matrix-host-crossings.ts";

describe("text tallies of the host-crossing shapes", () => {
  test("position-coded bytes decode to one character each, wherever a decoder's input is cut", () => {
    const decoder = new TextDecoder();
    const tally = emptyTally();
    let position = 0;
    for (const length of [1, 127, 2, 300, 1, 513]) {
      addText(tally, decoder.decode(freshBytes(length, position), { stream: true }));
      position += length;
    }
    addText(tally, decoder.decode());
    expect(tally).toEqual({ count: position, sum: 0 });
  });

  test("a lost or repeated chunk shows as a mismatch", () => {
    const pool = bytePool(100);
    for (const indexes of [
      [0, 1, 3],
      [0, 1, 1],
    ]) {
      const decoder = new TextDecoder();
      const tally = emptyTally();
      for (const index of indexes) addText(tally, decoder.decode(pool[index % pool.length], { stream: true }));
      expect(tally.sum, indexes.join()).toBeGreaterThan(0);
    }
  });
});
