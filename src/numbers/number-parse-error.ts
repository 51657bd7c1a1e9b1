/**
 * Why a line could not be parsed:
 * - `"unexpected-byte"`: a byte that the grammar does not allow where it stands (a space, `+`, `.`, a letter,
 *   a second `-`, the first byte of a multibyte UTF-8 character...);
 * - `"lone-minus"`: a line holding only `-`;
 * - `"unsafe-integer"`: the value's magnitude exceeds `Number.MAX_SAFE_INTEGER` (2^53 − 1);
 * - `"stray-carriage-return"`: a `\r` that is not immediately followed by `\n`.
 */
export type NumberParseErrorReason = "unexpected-byte" | "lone-minus" | "unsafe-integer" | "stray-carriage-return";

/** Where and why parsing failed; the fields of a {@linkcode NumberParseError}. */
export interface NumberParseErrorInit {
  /** Why parsing failed. */
  reason: NumberParseErrorReason;
  /** 1-based line number. */
  line: number;
  /** 1-based byte column within the line. */
  column: number;
  /** 0-based byte offset in the whole input. */
  offset: number;
  /** The byte that revealed the problem, or `undefined` when the input ended instead. */
  byte: number | undefined;
  /** For `"unexpected-byte"`: what the grammar allowed at that position, e.g. `"a digit or a line break"`. */
  expected?: string;
}

/**
 * Input that is not a sequence of decimal integer lines. The position points at the offending byte, except for
 * `"lone-minus"`, which points at the `-` (its `byte` is the line break that followed it, or `undefined` when
 * the input ended right after it).
 *
 * @example
 * ```ts
 * const parser = new NumberParser();
 * try {
 *   parser.push(new TextEncoder().encode("12\n3A\n"));
 * } catch (error) {
 *   if (error instanceof NumberParseError) {
 *     error.message; // "Cannot parse line 2, column 2: unexpected byte 0x41 ('A'); expected a digit or a line break"
 *     error.offset; // 4
 *   }
 * }
 * ```
 */
export class NumberParseError extends Error {
  override name = "NumberParseError";
  /** Why parsing failed. */
  readonly reason: NumberParseErrorReason;
  /** 1-based line number. */
  readonly line: number;
  /** 1-based byte column within the line. */
  readonly column: number;
  /** 0-based byte offset in the whole input. */
  readonly offset: number;
  /** The byte that revealed the problem, or `undefined` when the input ended instead. */
  readonly byte: number | undefined;
  /** For `"unexpected-byte"`: what the grammar allowed at that position. */
  readonly expected: string | undefined;

  /** Builds the error; the message names the position and describes the problem. */
  constructor(init: NumberParseErrorInit) {
    super(`Cannot parse line ${init.line}, column ${init.column}: ${describe(init)}`);
    this.reason = init.reason;
    this.line = init.line;
    this.column = init.column;
    this.offset = init.offset;
    this.byte = init.byte;
    this.expected = init.expected;
  }
}

function describe(init: NumberParseErrorInit): string {
  switch (init.reason) {
    case "unexpected-byte":
      return `unexpected ${showByte(init.byte)}; expected ${init.expected ?? "a digit, '-' or a line break"}`;
    case "lone-minus":
      return "'-' without digits";
    case "unsafe-integer":
      return "integer exceeds ±(2^53−1)";
    case "stray-carriage-return":
      return "carriage return not followed by a line feed";
  }
}

function showByte(byte: number | undefined): string {
  if (byte === undefined) return "end of input";
  const hex = `byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return byte >= 0x20 && byte <= 0x7e ? `${hex} ('${String.fromCharCode(byte)}')` : hex;
}
