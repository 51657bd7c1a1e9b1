import { NumberParseError, type NumberParseErrorReason } from "./number-parse-error.ts";

/** What a {@linkcode NumberParser} has seen so far. */
export interface ParseStats {
  /** Bytes consumed (after an error: the bytes before the one that revealed it). */
  bytes: number;
  /**
   * Lines seen, blank ones included (a final line without a line break counts once {@linkcode NumberParser.end}
   * ran).
   */
  lines: number;
  /** Numbers parsed. */
  numbers: number;
  /**
   * Whether re-encoding the numbers as decimal lines each ending in `\n` reproduces the input byte for byte:
   * no `\r`, no blank lines, no leading zeros, no `-0`, and the input is empty or ends with `\n`.
   * Final only after {@linkcode NumberParser.end}; false after an error.
   */
  canonical: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const ZERO = 0x30;

/** Nothing on the current line yet. */
const LINE_EMPTY = 0;
/** The current line so far is `-`. */
const AFTER_MINUS = 1;
/** The current line so far is an optional `-` and at least one digit. */
const IN_DIGITS = 2;
type LineState = typeof LINE_EMPTY | typeof AFTER_MINUS | typeof IN_DIGITS;

const EXPECTED: Record<LineState, string> = {
  [LINE_EMPTY]: "a digit, '-' or a line break",
  [AFTER_MINUS]: "a digit",
  [IN_DIGITS]: "a digit or a line break",
};

/**
 * Parses newline-separated decimal integers from byte chunks, one batch per chunk.
 *
 * Grammar of a line: an optional `-`, then one or more ASCII digits, ended by `\n` or `\r\n`. Blank lines are
 * skipped, leading zeros accepted (`007` is 7, `-0` is 0), and magnitudes above 2^53 − 1 rejected at the digit
 * that crosses the limit. Digits are folded into an accumulator that, like the line position, survives chunk
 * boundaries, so no bytes are copied or decoded. The first problem throws a {@linkcode NumberParseError};
 * from then on the parser is errored and every call throws that error again.
 *
 * @example
 * ```ts
 * const parser = new NumberParser();
 * parser.push(new TextEncoder().encode("2\n3\n1")); // new Float64Array([2, 3])
 * parser.push(new TextEncoder().encode("1\n13")); // new Float64Array([11])
 * parser.end(); // new Float64Array([13])
 * parser.stats; // { bytes: 9, lines: 4, numbers: 4, canonical: false }
 * ```
 */
export class NumberParser {
  #scratch = new Float64Array(0);
  #acc = 0;
  #negative = false;
  #state: LineState = LINE_EMPTY;
  #pendingCarriageReturn = false;
  #line = 1;
  #lineStart = 0;
  #bytes = 0;
  #numbers = 0;
  #canonical = true;
  #ended = false;
  #error: NumberParseError | undefined;

  /** A snapshot of what the parser has seen so far. */
  get stats(): ParseStats {
    return { bytes: this.#bytes, lines: this.#line - 1, numbers: this.#numbers, canonical: this.#canonical };
  }

  /**
   * Parses `chunk` and returns the numbers of the lines it completes, in a fresh array owned by the caller.
   * A line may span chunks: its number is returned by the push that delivers its line break.
   *
   * @throws {NumberParseError} when the input breaks the grammar (and on every call after that).
   */
  push(chunk: Uint8Array): Float64Array {
    return this.pushView(chunk).slice();
  }

  /**
   * {@linkcode push} without the copy: the numbers are returned in a view of the parser's own buffer, which
   * the next call overwrites. For a caller that consumes them at once.
   *
   * @throws {NumberParseError} when the input breaks the grammar (and on every call after that).
   *
   * @example
   * ```ts
   * const parser = new NumberParser();
   * let sum = 0;
   * for (const n of parser.pushView(new TextEncoder().encode("2\n3\n5\n"))) sum += n;
   * sum; // 10
   * ```
   */
  pushView(chunk: Uint8Array): Float64Array {
    this.#assertOpen("push");
    const length = chunk.length;
    const base = this.#bytes;
    // Every number completed here but the first needs a digit and a line break of its own.
    const capacity = (length >>> 1) + 1;
    let out = this.#scratch;
    if (out.length < capacity) out = this.#scratch = new Float64Array(capacity);
    let acc = this.#acc;
    let negative = this.#negative;
    let state = this.#state;
    let canonical = this.#canonical;
    let line = this.#line;
    let lineStart = this.#lineStart;
    let count = 0;
    if (this.#pendingCarriageReturn && length > 0) {
      if (chunk[0] !== LF) this.#fail("stray-carriage-return", base - 1, CR, line, lineStart, base - 1, 0);
      this.#pendingCarriageReturn = false;
    }
    let i = 0;
    while (i < length) {
      const byte = chunk[i]!;
      let digit = (byte - ZERO) >>> 0;
      if (digit <= 9) {
        // A run of digits, folded in a tight loop that stops at the first digit crossing the safe range.
        const runStart = i;
        if (state === IN_DIGITS && acc === 0) canonical = false;
        for (;;) {
          acc = acc * 10 + digit;
          if (acc > Number.MAX_SAFE_INTEGER) {
            this.#fail("unsafe-integer", base + i, chunk[i], line, lineStart, base + i, count);
          }
          if (++i === length) break;
          digit = (chunk[i]! - ZERO) >>> 0;
          if (digit > 9) break;
        }
        if (state !== IN_DIGITS) {
          if (byte === ZERO && i - runStart > 1) canonical = false;
          state = IN_DIGITS;
        }
        continue;
      }
      if (byte === LF) {
        if (state === IN_DIGITS) {
          if (negative) {
            // `0 - acc` rather than `-acc`, so that "-0" yields 0 and not -0.
            out[count++] = 0 - acc;
            if (acc === 0) canonical = false;
            negative = false;
          } else {
            out[count++] = acc;
          }
          acc = 0;
          state = LINE_EMPTY;
        } else if (state === LINE_EMPTY) {
          canonical = false;
        } else {
          const after = base + i === lineStart + 1 ? LF : CR;
          this.#fail("lone-minus", lineStart, after, line, lineStart, base + i, count);
        }
        line++;
        lineStart = base + i + 1;
      } else if (byte === MINUS && state === LINE_EMPTY) {
        negative = true;
        state = AFTER_MINUS;
      } else if (byte === CR) {
        canonical = false;
        if (i + 1 === length) this.#pendingCarriageReturn = true;
        else if (chunk[i + 1] !== LF)
          this.#fail("stray-carriage-return", base + i, CR, line, lineStart, base + i, count);
      } else {
        this.#fail("unexpected-byte", base + i, byte, line, lineStart, base + i, count, EXPECTED[state]);
      }
      i++;
    }
    this.#acc = acc;
    this.#negative = negative;
    this.#state = state;
    this.#canonical = canonical;
    this.#line = line;
    this.#lineStart = lineStart;
    this.#bytes = base + length;
    this.#numbers += count;
    return out.subarray(0, count);
  }

  /**
   * Ends the input: returns the number of a final line that has no line break (an empty array otherwise).
   * Afterwards the parser accepts no more calls.
   *
   * @throws {NumberParseError} when the input ends in a lone `-` or a `\r`.
   */
  end(): Float64Array {
    this.#assertOpen("end");
    this.#ended = true;
    const bytes = this.#bytes;
    const line = this.#line;
    const lineStart = this.#lineStart;
    if (this.#pendingCarriageReturn) this.#fail("stray-carriage-return", bytes - 1, CR, line, lineStart, bytes - 1, 0);
    if (this.#state === AFTER_MINUS) this.#fail("lone-minus", lineStart, undefined, line, lineStart, bytes, 0);
    if (this.#state === LINE_EMPTY) return new Float64Array(0);
    const value = this.#negative ? 0 - this.#acc : this.#acc;
    this.#state = LINE_EMPTY;
    this.#canonical = false;
    this.#line = line + 1;
    this.#lineStart = bytes;
    this.#numbers += 1;
    return Float64Array.of(value);
  }

  #assertOpen(action: string): void {
    if (this.#error) throw this.#error;
    if (this.#ended) throw new Error(`Cannot ${action}: the parser has already ended`);
  }

  #fail(
    reason: NumberParseErrorReason,
    offset: number,
    byte: number | undefined,
    line: number,
    lineStart: number,
    consumed: number,
    numbers: number,
    expected?: string,
  ): never {
    const error = new NumberParseError({ reason, line, column: offset - lineStart + 1, offset, byte, expected });
    this.#error = error;
    this.#bytes = consumed;
    this.#line = line;
    this.#numbers += numbers;
    this.#canonical = false;
    throw error;
  }
}
