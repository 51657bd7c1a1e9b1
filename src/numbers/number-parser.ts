import { type CanonicalRun, lineEndAfter, scanCanonicalLines } from "./canonical-lines.ts";
import { CHUNK_RUN, type LineRuns, NORMALIZED_RUN, NUMBER_RUN } from "./line-runs.ts";
import { type NormalizedRun, normalizeLines } from "./normalize-lines.ts";
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
const ONE = 0x31;

/** Nothing on the current line yet. */
const LINE_EMPTY = 0;
/** The current line so far is `-`. */
const AFTER_MINUS = 1;
/** The current line so far is an optional `-` and at least one digit. */
const IN_DIGITS = 2;
/** Bytes of lines written in canonical form, at least, once `NumberParser.pushLines` meets a line that is not. */
const NORMALIZE_WINDOW = 1024;
/** The most bytes written in canonical form before canonical lines are looked for again (the window doubles). */
const MAX_NORMALIZE_WINDOW = 64 * 1024;

/** Digits folded in int32 arithmetic before they are added to the number: 10^9 − 1 fits an int32. */
const GROUP_DIGITS = 9;
/** The most digits of a line the parser's fast loop reads: 15, so that its number is always below 2^53. */
const FAST_MAX_DIGITS = 15;
/** The bytes of the longest line the fast loop reads: `-`, its digits, `\r` and `\n`. */
const FAST_LINE_BYTES = FAST_MAX_DIGITS + 3;
/** Lines the parser reads with its state machine after an attempt at {@linkcode readCommonLines} found none. */
const COMMON_RETRY_LINES = 16;
/** 10^k for k from 0 to {@linkcode GROUP_DIGITS}. */
const POWERS_OF_TEN = Float64Array.from({ length: GROUP_DIGITS + 1 }, (_, k) => 10 ** k);

/**
 * The index of the digit of `chunk` from `start` on that takes a number, `acc` before `start`, past
 * `Number.MAX_SAFE_INTEGER` (the caller knows that one does).
 */
function unsafeDigitIndex(chunk: Uint8Array, start: number, acc: number): number {
  let value = acc;
  for (let i = start; ; i++) {
    value = value * 10 + (chunk[i]! - ZERO);
    if (value > Number.MAX_SAFE_INTEGER) return i;
  }
}

/**
 * Where the last {@linkcode readCommonLines} stopped: the index just after the last line it read (its start index
 * when it read none), and whether a line it read ended with `\r\n`. Module variables rather than fields of an
 * object passed in, because a store to them needs no type feedback: V8 compiles the function's loop while its first
 * call still runs (on-stack replacement), before any code after the loop has run, and a field store there, lacking
 * feedback, deoptimizes that code at the end of the call; V8 then enters the same compiled loop again on the next
 * call, and seen in Node 24 that repeated once per chunk for hundreds of chunks.
 */
let commonEnd = 0;
let commonCrlf = false;

/**
 * Reads the lines of `chunk` (seen through `view`) from `from` on, a line start, that have the common form, and
 * writes their numbers into `out` from `count` on: an optional `-`, a digit from 1 to 9, at most 14 more digits,
 * and `\n` or `\r\n`. Such a line is valid and its number safe (below 10^15), so it needs none of the parser's
 * checks. Stops at the start of the first other line (blank, a leading zero, longer or invalid), or where a line
 * might not end before `to`; the parser's state machine takes over from there.
 *
 * The digits after the first are read four at a time while they last: one 32-bit load, one test that all four
 * bytes are digits, and their value in three multiplications (SWAR: the bytes as lanes of one integer).
 *
 * Returns the count of numbers in `out` after the lines read; where it stopped is left in `commonEnd` and
 * `commonCrlf`.
 */
function readCommonLines(
  chunk: Uint8Array,
  view: DataView,
  from: number,
  to: number,
  out: Float64Array,
  count: number,
): number {
  const fastEnd = to - FAST_LINE_BYTES;
  let crlf = false;
  let n = count;
  let i = from;
  while (i < fastEnd) {
    let j = i;
    let lead = (chunk[j]! - ONE) >>> 0;
    // A `-` is looked for only where no leading digit is: one test per line for the common line.
    const negative = lead > 8 && chunk[j] === MINUS;
    if (negative) lead = (chunk[++j]! - ONE) >>> 0;
    if (lead > 8) break;
    const digits = j;
    // The SWAR steps stop before the line's 14th digit, the byte steps after its 15th.
    const quadsEnd = digits + FAST_MAX_DIGITS - 3;
    const digitsEnd = digits + FAST_MAX_DIGITS;
    let value = lead + 1;
    j++;
    while (j < quadsEnd) {
      const word = view.getUint32(j, true);
      // A byte is no digit when it is below 0x30 (subtracting 0x30 sets its top bit) or above 0x39 (adding 0x46
      // sets it); a lane that borrows or carries into the next one is itself no digit, and the lowest such lane
      // is found before it can disturb another.
      const lanes = word - 0x30303030;
      if (((lanes | (word + 0x46464646)) & 0x80808080) !== 0) break;
      // Lanes d0..d3, d0 the first digit: pairs (10·d0 + d1, 10·d2 + d3) in 16-bit lanes, then their value.
      const pairs = (lanes & 0x00ff00ff) * 10 + ((lanes >>> 8) & 0x00ff00ff);
      value = value * 10_000 + ((pairs & 0xffff) * 100 + (pairs >>> 16));
      j += 4;
    }
    let next = chunk[j]!;
    for (let digit = (next - ZERO) >>> 0; digit <= 9 && j < digitsEnd; digit = (next - ZERO) >>> 0) {
      value = value * 10 + digit;
      next = chunk[++j]!;
    }
    if (next !== LF) {
      if (next !== CR || chunk[j + 1] !== LF) break;
      crlf = true;
      j++;
    }
    out[n++] = negative ? 0 - value : value;
    i = j + 1;
  }
  commonEnd = i;
  commonCrlf = crlf;
  return n;
}

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
  readonly #scan: CanonicalRun = { end: 0, lines: 0, sorted: false };
  /** A view of the last chunk {@linkcode readCommonLines} read, for the next call on the same chunk. */
  #view: DataView | undefined;
  readonly #normalized: NormalizedRun = {
    end: 0,
    written: 0,
    lines: 0,
    numbers: 0,
    changed: false,
    sorted: false,
    last: Number.NEGATIVE_INFINITY,
  };

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
    const out = this.#reserve(chunk.length);
    return out.subarray(0, this.#parse(chunk, 0, chunk.length, out, 0));
  }

  /**
   * Parses `chunk` like {@linkcode pushView}, but hands the lines it completes over as `runs` of bytes in canonical
   * form rather than as numbers: the lines already canonical (see `scanCanonicalLines`) as byte ranges of `chunk`,
   * validated without being converted; the other valid lines written in canonical form from their bytes (see
   * `normalizeLines`); only a line that needs the parser's state (one begun in an earlier chunk, or that the
   * checks above cannot vouch for) as its number. Storing the runs in order stores the same bytes as encoding
   * {@linkcode pushView}'s numbers; errors and {@linkcode stats} are the same too. Runs of lines in canonical form
   * name their lines whose index among all numbers is a multiple of `runs.markEvery` (`LineRuns.marksOf`).
   *
   * @throws {NumberParseError} when the input breaks the grammar (and on every call after that).
   *
   * @example
   * ```ts
   * const parser = new NumberParser();
   * const runs = new LineRuns();
   * parser.pushLines(new TextEncoder().encode("2\n3\n\n5\n1"), runs);
   * // "2\n3\n" left as it is, then "5\n" written by the parser; "1" waits for the rest of its line:
   * [runs.count, runs.kind(0), runs.end(0), runs.kind(1), runs.lines(1)]; // [2, CHUNK_RUN, 4, NORMALIZED_RUN, 1]
   * parser.stats; // { bytes: 8, lines: 4, numbers: 3, canonical: false }
   * ```
   */
  pushLines(chunk: Uint8Array, runs: LineRuns): void {
    this.#assertOpen("push");
    const length = chunk.length;
    runs.reset(length);
    const scan = this.#scan;
    const normalized = this.#normalized;
    let count = 0;
    let written = 0;
    let window = NORMALIZE_WINDOW;
    let i = 0;
    while (i < length) {
      if (this.#state === LINE_EMPTY && !this.#pendingCarriageReturn) {
        runs.markFrom(this.#numbers);
        scanCanonicalLines(chunk, i, scan, runs.order, runs.marks);
        // Each scan that finds no canonical line doubles the window below: input that is not canonical throughout
        // costs few scans and runs, and input canonical but for a line here and there goes back to the scan soon.
        window = scan.end > i ? NORMALIZE_WINDOW : Math.min(2 * window, MAX_NORMALIZE_WINDOW);
        if (scan.end > i) {
          runs.add(CHUNK_RUN, i, scan.end, scan.lines, scan.sorted);
          this.#skipLines(scan.end - i, scan.lines, scan.lines);
          i = scan.end;
          if (i === length) break;
        }
        // Lines from here on are written in canonical form a window at a time, before canonical lines are looked
        // for again: input that is not canonical throughout costs one failed scan per window, not one per line.
        // They extend the run written just before them.
        const extend = runs.count > 0 && runs.kind(runs.count - 1) === NORMALIZED_RUN;
        if (!extend) normalized.last = Number.NEGATIVE_INFINITY;
        const stop = Math.min(i + window, length);
        runs.markFrom(this.#numbers);
        normalizeLines(chunk, i, stop, runs.bytes, written, normalized, runs.order, runs.marks);
        if (normalized.end > i) {
          if (extend) runs.extend(normalized.written, normalized.numbers, normalized.sorted);
          else runs.add(NORMALIZED_RUN, written, normalized.written, normalized.numbers, normalized.sorted);
          this.#skipLines(normalized.end - i, normalized.lines, normalized.numbers);
          if (normalized.changed) this.#canonical = false;
          written = normalized.written;
          i = normalized.end;
          continue;
        }
      }
      // One line the exact way: it began in an earlier chunk, is malformed, or ends beyond this chunk.
      const to = lineEndAfter(chunk, i);
      const before = count;
      count = this.#parse(chunk, i, to, runs.numbers, count);
      if (count > before) runs.add(NUMBER_RUN, before, count, count - before);
      i = to;
    }
  }

  /** Counts `lines` complete lines of `bytes` bytes, `numbers` of them not blank, taken without the state machine. */
  #skipLines(bytes: number, lines: number, numbers: number): void {
    this.#bytes += bytes;
    this.#line += lines;
    this.#lineStart = this.#bytes;
    this.#numbers += numbers;
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

  /** The parser's number buffer, grown to hold the numbers a chunk of `length` bytes can complete. */
  #reserve(length: number): Float64Array {
    // Every number completed in a chunk but the first needs a digit and a line break of its own.
    const capacity = (length >>> 1) + 1;
    if (this.#scratch.length < capacity) this.#scratch = new Float64Array(capacity);
    return this.#scratch;
  }

  /**
   * The state machine: parses `chunk[from..to)`, whose first byte is the next of the input, writing the numbers
   * it completes into `out` from index `count` on, and returns the new count.
   */
  #parse(chunk: Uint8Array, from: number, to: number, out: Float64Array, count: number): number {
    const base = this.#bytes - from;
    const first = count;
    let acc = this.#acc;
    let negative = this.#negative;
    let state = this.#state;
    let canonical = this.#canonical;
    let line = this.#line;
    let lineStart = this.#lineStart;
    if (this.#pendingCarriageReturn && from < to) {
      if (chunk[from] !== LF)
        this.#fail("stray-carriage-return", base + from - 1, CR, line, lineStart, base + from - 1, 0);
      this.#pendingCarriageReturn = false;
    }
    let commonFrom = line;
    let i = from;
    while (i < to) {
      if (state === LINE_EMPTY && line >= commonFrom && i < to - FAST_LINE_BYTES) {
        // Lines in the common form first, read without the state machine (which then goes on from a line start).
        const after = readCommonLines(chunk, this.#viewOf(chunk), i, to, out, count);
        if (after > count) {
          line += after - count;
          count = after;
          i = commonEnd;
          lineStart = base + i;
          if (commonCrlf) canonical = false;
        } else {
          // Not one: input where such lines are rare pays for one failed attempt per COMMON_RETRY_LINES lines.
          commonFrom = line + COMMON_RETRY_LINES;
        }
      }
      const byte = chunk[i]!;
      let digit = (byte - ZERO) >>> 0;
      if (digit <= 9) {
        // A run of digits. Up to nine at a time are folded in int32 arithmetic (`group`, below 10^9), which is
        // shorter work per digit than floating point, and each group is added to `acc` at once: exact while `acc`
        // stays within the safe range, and a run that leaves it is gone over again digit by digit to find the
        // digit that crossed it.
        const runStart = i;
        const accBefore = acc;
        if (state === IN_DIGITS && acc === 0) canonical = false;
        for (;;) {
          const groupStart = i;
          const stop = Math.min(to, i + GROUP_DIGITS);
          let group = digit;
          while (++i < stop) {
            digit = (chunk[i]! - ZERO) >>> 0;
            if (digit > 9) break;
            group = group * 10 + digit;
          }
          acc = acc * POWERS_OF_TEN[i - groupStart]! + group;
          // Stopped at a byte that is no digit, or at the end of the chunk; else the group is full: go on if
          // the next byte is a digit.
          if (i < stop || i === to) break;
          digit = (chunk[i]! - ZERO) >>> 0;
          if (digit > 9) break;
        }
        if (acc > Number.MAX_SAFE_INTEGER) {
          const at = unsafeDigitIndex(chunk, runStart, accBefore);
          this.#fail("unsafe-integer", base + at, chunk[at], line, lineStart, base + at, count - first);
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
          this.#fail("lone-minus", lineStart, after, line, lineStart, base + i, count - first);
        }
        line++;
        lineStart = base + i + 1;
      } else if (byte === MINUS && state === LINE_EMPTY) {
        negative = true;
        state = AFTER_MINUS;
      } else if (byte === CR) {
        canonical = false;
        if (i + 1 === to) this.#pendingCarriageReturn = true;
        else if (chunk[i + 1] !== LF)
          this.#fail("stray-carriage-return", base + i, CR, line, lineStart, base + i, count - first);
      } else {
        this.#fail("unexpected-byte", base + i, byte, line, lineStart, base + i, count - first, EXPECTED[state]);
      }
      i++;
    }
    this.#acc = acc;
    this.#negative = negative;
    this.#state = state;
    this.#canonical = canonical;
    this.#line = line;
    this.#lineStart = lineStart;
    this.#bytes = base + to;
    this.#numbers += count - first;
    return count;
  }

  /** A `DataView` of `chunk`, made once per chunk. */
  #viewOf(chunk: Uint8Array): DataView {
    const view = this.#view;
    if (
      view !== undefined &&
      view.buffer === chunk.buffer &&
      view.byteOffset === chunk.byteOffset &&
      view.byteLength === chunk.byteLength
    ) {
      return view;
    }
    const made = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.#view = made;
    return made;
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
