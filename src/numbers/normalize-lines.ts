/**
 * Writing valid lines in canonical form straight from their bytes, without converting them into numbers: the
 * canonical pass-through's path for input that is not canonical.
 *
 * @module
 */
import { addMark, canonicalLineValue, type LineMarks, NO_MARK } from "./canonical-lines.ts";

const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const ZERO = 0x30;

/** The digits of `Number.MAX_SAFE_INTEGER` as bytes. */
const MAX_SAFE_DIGITS = Uint8Array.from(String(Number.MAX_SAFE_INTEGER), (digit) => digit.charCodeAt(0));
const MAX_SAFE_LENGTH = MAX_SAFE_DIGITS.length;

/** What {@linkcode normalizeLines} did: filled in by it. */
export interface NormalizedRun {
  /** The index just after the last line it took (the start index when it took none). */
  end: number;
  /** Where its output ends in `out`. */
  written: number;
  /** Lines taken, blank ones included. */
  lines: number;
  /** Numbers written (lines taken that are not blank). */
  numbers: number;
  /** Whether a line taken was not already canonical (its output differs from it). */
  changed: boolean;
  /**
   * Whether the numbers written are non-decreasing and none is below the number {@linkcode last} held before the
   * call; only found when {@linkcode normalizeLines} is asked to (`order`), else `false`.
   */
  sorted: boolean;
  /**
   * With `order`: read as the number before the lines taken (`-Infinity` for none), left as the last number written
   * while they stay in order.
   */
  last: number;
}

/**
 * Takes the complete lines of `bytes` that start from `from` (which must start a line) up to before `stop`, and
 * writes each in canonical form into `out` from `outStart` on: `\r\n` becomes `\n`, leading zeros go, `-0` becomes
 * `0`, blank lines vanish. It stops before the first line it cannot vouch for without a parser's state: one that
 * breaks the grammar, whose magnitude exceeds 2^53 − 1, or that has no line break before the end of `bytes`. The
 * output is never longer than the lines taken. With `order`, it also finds whether the numbers are non-decreasing
 * from `run.last` on (`run.sorted`), and leaves the last of them in `run.last`. With `marks`, it counts the numbers
 * it writes down and appends where each marked one starts in `out` (see `LineMarks`).
 *
 * @example
 * ```ts
 * const out = new Uint8Array(16);
 * const run = { end: 0, written: 0, lines: 0, numbers: 0, changed: false, sorted: false, last: -Infinity };
 * normalizeLines(new TextEncoder().encode("007\r\n\r\n-0\n12x\n"), 0, 14, out, 0, run);
 * new TextDecoder().decode(out.subarray(0, run.written)); // "7\n0\n"
 * [run.end, run.lines, run.numbers, run.changed]; // [10, 3, 2, true]
 * const marks = { every: 2, next: 1, offsets: new Int32Array(4), count: 0 };
 * normalizeLines(new TextEncoder().encode("09\r\n10\r\n"), 0, 8, out, 0, run, true, marks);
 * [run.numbers, run.sorted, run.last]; // [2, true, 10]
 * // "10\n", the second number, starts at 2 in `out`:
 * [...marks.offsets.subarray(0, marks.count)]; // [2]
 * ```
 */
export function normalizeLines(
  bytes: Uint8Array,
  from: number,
  stop: number,
  out: Uint8Array,
  outStart: number,
  run: NormalizedRun,
  order = false,
  marks?: LineMarks,
): void {
  const length = bytes.length;
  let i = from;
  let end = from;
  let w = outStart;
  let lines = 0;
  let numbers = 0;
  let changed = false;
  let sorted = order;
  let last = run.last;
  const every = marks ? marks.every : NO_MARK;
  let toMark = marks ? marks.next : NO_MARK;
  while (i < stop) {
    const negative = bytes[i] === MINUS;
    if (negative) i++;
    const zeros = i;
    while (i < length && bytes[i] === ZERO) i++;
    const digits = i;
    // The digits are copied as they are scanned (with the sign before them); a line that turns out to be zeros
    // only, or is not taken, overwrites or leaves these bytes past the output's end.
    const at = w;
    let o = w;
    if (negative) out[o++] = MINUS;
    // The number in 32-bit integers (cheaper than doubles), for the order; exact up to 9 digits, read
    // again below for longer lines.
    let value = 0;
    while (i < length) {
      const byte = bytes[i]!;
      const digit = (byte - ZERO) >>> 0;
      if (digit > 9) break;
      out[o++] = byte;
      value = (value * 10 + digit) | 0;
      i++;
    }
    if (i === length) break;
    let next = i + 1;
    if (bytes[i] === CR) {
      if (next === length || bytes[next] !== LF) break;
      next++;
      changed = true;
    } else if (bytes[i] !== LF) break;
    const zeroCount = digits - zeros;
    const significant = i - digits;
    if (significant >= MAX_SAFE_LENGTH && !safeDigits(bytes, digits, significant)) break;
    if (significant > 0) {
      if (zeroCount > 0) changed = true;
      w = o;
      out[w++] = LF;
      numbers++;
    } else if (zeroCount > 0) {
      // Zeros only: "0", or not canonical ("00", "-0").
      if (zeroCount > 1 || negative) changed = true;
      out[w++] = ZERO;
      out[w++] = LF;
      numbers++;
    } else if (negative) {
      break; // A lone '-': the parser's error.
    } else {
      changed = true; // A blank line.
      lines++;
      i = end = next;
      continue;
    }
    if (sorted) {
      if (significant > 9) value = canonicalLineValue(bytes, digits, i);
      if (negative) value = -value;
      if (value < last) sorted = false;
      last = value;
    }
    if (toMark === 0) {
      addMark(marks!, at);
      toMark = every - 1;
    } else toMark--;
    lines++;
    i = end = next;
  }
  run.end = end;
  run.written = w;
  run.lines = lines;
  run.numbers = numbers;
  run.changed = changed;
  run.sorted = sorted;
  if (order) run.last = last;
  if (marks) marks.next = toMark;
}

/** Whether the `count` digits from `start` on (no leading zero) stay within `Number.MAX_SAFE_INTEGER`. */
function safeDigits(bytes: Uint8Array, start: number, count: number): boolean {
  if (count !== MAX_SAFE_LENGTH) return false;
  for (let k = 0; k < MAX_SAFE_LENGTH; k++) {
    const difference = bytes[start + k]! - MAX_SAFE_DIGITS[k]!;
    if (difference !== 0) return difference < 0;
  }
  return true;
}
