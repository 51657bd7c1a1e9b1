import { describe, expect, test } from "vitest";
import { formatFileTable } from "../../src/cli/commands/ls.ts";
import {
  formatByteRate,
  formatBytes,
  formatCount,
  formatCountRate,
  formatSeconds,
  plural,
  roundSeconds,
} from "../../src/cli/format.ts";
import { estimateRemaining } from "../../src/cli/progress.ts";
import type { FileSummary } from "../../src/files/file-catalog.ts";

describe("format", () => {
  test.each([
    [0, "0 B"],
    [512, "512 B"],
    [129_000, "129 kB"],
    [8_245_905, "8.25 MB"],
    [1_100_000_000, "1.1 GB"],
  ])("formatBytes(%d) is %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  test("counts and rates", () => {
    expect(formatCount(1_000_000)).toBe("1,000,000");
    expect(formatByteRate(10_000_000, 2)).toBe("5 MB/s");
    expect(formatByteRate(8_245_905, 0.81)).toBe("10.2 MB/s");
    expect(formatByteRate(1000, 0)).toBe("1 GB/s");
    expect(formatCountRate(1_000_000, 2, "numbers")).toBe("500,000 numbers/s");
  });

  test.each([
    [0.81, "810ms"],
    [1.2345, "1.2s"],
    [65.4, "1m 5.4s"],
  ])("formatSeconds(%d) is %s", (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

describe("formatFileTable", () => {
  const file = (name: string, numbers: number, bytes: number, parts: number): FileSummary => ({
    name,
    createdAt: "2026-11-22T04:30:00.000Z",
    totals: { numbers, bytes, parts },
  });

  test("aligns names and dates left, numbers right, under the header, with no borders", () => {
    expect(formatFileTable([file("primes", 1_000_000, 8_245_905, 1), file("a-longer-name", 12, 512, 100)])).toEqual([
      "NAME             NUMBERS     SIZE  PARTS  CREATED",
      "primes         1,000,000  8.25 MB      1  2026-11-22T04:30:00.000Z",
      "a-longer-name         12    512 B    100  2026-11-22T04:30:00.000Z",
    ]);
  });

  test("says so when there are no files", () => {
    expect(formatFileTable([])).toEqual(["no files"]);
  });
});

describe("plural", () => {
  test.each([
    [0, "0 parts"],
    [1, "1 part"],
    [2, "2 parts"],
    [12_345, "12,345 parts"],
  ])("plural(%d, part) is %s", (count, text) => {
    expect(plural(count, "part")).toBe(text);
  });
});

describe("roundSeconds", () => {
  test("keeps milliseconds", () => {
    expect(roundSeconds(3.1216101770000004)).toBe(3.122);
    expect(roundSeconds(0.0004)).toBe(0);
  });
});

describe("estimateRemaining", () => {
  test.each([
    [100, undefined, "?"],
    [100, 0, "?"],
    [50, 50 / 65, "1m 5s"],
    [50, 50 / 2.4, "2s"],
    [1, 1, "1s"],
    [1, 1.01, "<1s"],
    [0, undefined, "0s"],
  ])("%d left at %d a second is %s", (left, perSecond, text) => {
    expect(estimateRemaining(left, perSecond)).toBe(text);
  });
});
