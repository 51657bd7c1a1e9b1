import { describe, expect, test } from "vitest";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";

describe("NumberParseError", () => {
  test("keeps its fields and names the position", () => {
    const error = new NumberParseError({
      reason: "unexpected-byte",
      line: 3,
      column: 5,
      offset: 17,
      byte: 0x41,
      expected: "a digit, '-' or a line break",
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("NumberParseError");
    expect(error).toMatchObject({ reason: "unexpected-byte", line: 3, column: 5, offset: 17, byte: 0x41 });
    expect(error.message).toBe(
      "Cannot parse line 3, column 5: unexpected byte 0x41 ('A'); expected a digit, '-' or a line break",
    );
  });

  test("shows non-printable bytes as hex only", () => {
    const at = { line: 1, column: 1, offset: 0, expected: "a digit" };
    expect(new NumberParseError({ ...at, reason: "unexpected-byte", byte: 0 }).message).toBe(
      "Cannot parse line 1, column 1: unexpected byte 0x00; expected a digit",
    );
    expect(new NumberParseError({ ...at, reason: "unexpected-byte", byte: 0xe2 }).message).toContain("byte 0xE2;");
    expect(new NumberParseError({ ...at, reason: "unexpected-byte", byte: 0x20 }).message).toContain("0x20 (' ')");
    expect(new NumberParseError({ ...at, reason: "unexpected-byte", byte: 0x7f }).message).toContain("byte 0x7F;");
  });

  test("describes the other reasons", () => {
    expect(new NumberParseError({ reason: "unsafe-integer", line: 7, column: 17, offset: 0, byte: 0x32 }).message).toBe(
      "Cannot parse line 7, column 17: integer exceeds ±(2^53−1)",
    );
    expect(new NumberParseError({ reason: "lone-minus", line: 2, column: 1, offset: 3, byte: undefined }).message).toBe(
      "Cannot parse line 2, column 1: '-' without digits",
    );
    expect(
      new NumberParseError({ reason: "stray-carriage-return", line: 1, column: 2, offset: 1, byte: 0x0d }).message,
    ).toBe("Cannot parse line 1, column 2: carriage return not followed by a line feed");
  });
});
