import { describe, expect, test } from "vitest";
import { describeRemoval } from "../../../src/cli/commands/rm.ts";
import { describeSweep } from "../../../src/cli/commands/sweep.ts";

describe("what rm and sweep say", () => {
  test("rm names the file, or counts the leftovers it removed when there was no complete file", () => {
    expect(describeRemoval("primes", { existed: true, remnants: 0 })).toBe('removed "primes"');
    expect(describeRemoval("primes", { existed: false, remnants: 1 })).toBe(
      'removed 1 leftover object of "primes" (dead uploads; there was no complete file)',
    );
    expect(describeRemoval("p", { existed: false, remnants: 7 })).toContain("removed 7 leftover objects");
  });

  test("sweep counts names and objects", () => {
    expect(describeSweep({ names: 1, removed: 1 })).toBe("swept 1 file name: removed 1 object nothing referred to");
    expect(describeSweep({ names: 2000, removed: 0 })).toBe(
      "swept 2,000 file names: removed 0 objects nothing referred to",
    );
  });
});
