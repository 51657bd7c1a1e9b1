import { InvalidArgumentError } from "commander";
import { describe, expect, test } from "vitest";
import { countArgument, parseQuantity, sizeArgument } from "../../src/cli/quantity.ts";

describe("parseQuantity", () => {
  test.each([
    ["1024", 1024],
    ["10MB", 10_000_000],
    ["10 MB", 10_000_000],
    ["10mb", 10_000_000],
    ["10MiB", 10_485_760],
    ["512kB", 512_000],
    ["1GiB", 1_073_741_824],
    ["1e7", 10_000_000],
    ["1.5e6", 1_500_000],
    ["1.5MB", 1_500_000],
    ["10_000_000", 10_000_000],
    ["10,000,000B", 10_000_000],
  ])("size %s is %d", (text, value) => {
    expect(parseQuantity(text, { units: true })).toBe(value);
  });

  test.each(["", "MB", "ten", "10 parsecs", "-5", "1.5", "1.5B", "1e400", "0x10"])("size %j is refused", (text) => {
    expect(parseQuantity(text, { units: true })).toBeUndefined();
  });

  test("a count takes the same numbers but no unit", () => {
    expect(parseQuantity("1e6", { units: false })).toBe(1_000_000);
    expect(parseQuantity("1_000_000", { units: false })).toBe(1_000_000);
    expect(parseQuantity("10MB", { units: false })).toBeUndefined();
  });
});

describe("sizeArgument and countArgument", () => {
  test("accept values in range and name the option, the syntax and the range otherwise", () => {
    expect(sizeArgument("--max-part-bytes", 1024, 2 ** 30)("10MiB")).toBe(10_485_760);
    expect(() => sizeArgument("--max-part-bytes", 1024, 2 ** 30)("1000")).toThrow(
      new InvalidArgumentError(
        `Cannot use --max-part-bytes "1000": expected a size such as 10MB, 10MiB or 1e7, from 1,024 to 1,073,741,824.`,
      ),
    );
    expect(countArgument("--parallel", 1, 64)("8")).toBe(8);
    expect(() => countArgument("--parallel", 1, 64)("8MB")).toThrow(`Cannot use --parallel "8MB"`);
  });
});
