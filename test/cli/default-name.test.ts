import { describe, expect, test } from "vitest";
import { UsageError } from "../../src/cli/cli-error.ts";
import { defaultName } from "../../src/cli/default-name.ts";

describe("defaultName", () => {
  test.each([
    ["primes.txt", "primes.txt"],
    ["/data/first 1e6 primes.txt", "first-1e6-primes.txt"],
    ["./.hidden..txt", "hidden.txt"],
    ["C:\\fake/dir/prîmes (1).txt", "pr-mes-1-.txt"],
    ["__init__", "init__"],
    [`${"x".repeat(200)}.txt`, "x".repeat(128)],
  ])("%s -> %s", (path, name) => {
    expect(defaultName(path)).toBe(name);
  });

  test("refuses a base name with nothing usable in it", () => {
    expect(() => defaultName("/tmp/...")).toThrow(UsageError);
    expect(() => defaultName("/tmp/...")).toThrow(`Cannot derive a file name from "/tmp/...": pass one with --name`);
  });
});
