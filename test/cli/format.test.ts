import { describe, expect, test } from "vitest";
import { formatFileTable } from "../../src/cli/commands/ls.ts";
import { formatByteRate, formatBytes, formatCount, formatCountRate, formatSeconds } from "../../src/cli/format.ts";
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
