/**
 * Lines already in canonical form: `0`, or an optional `-` and a digit from 1 to 9 followed by more digits, with a
 * magnitude of at most 2^53 − 1, ended by `\n`. They are exactly the lines that encoding their number gives back
 * (see `encodeNumbersInto`), so their bytes can be stored as they are.
 *
 * @module
 */

const LF = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const ONE = 0x31;

/** The digits of `Number.MAX_SAFE_INTEGER`, the largest canonical magnitude, as bytes. */
const MAX_SAFE_DIGITS = Uint8Array.from(String(Number.MAX_SAFE_INTEGER), (digit) => digit.charCodeAt(0));
const MAX_SAFE_LENGTH = MAX_SAFE_DIGITS.length;

/**
 * A countdown of {@linkcode LineMarks} that marks no line in a call that takes fewer than 2^31 − 1 lines (any chunk
 * under 4 GiB: a line takes 2 bytes at least).
 */
export const NO_MARK = 0x7fffffff;

/** Where a run of canonical lines ends: filled by {@linkcode scanCanonicalLines}. */
export interface CanonicalRun {
  /** The index just after the run's last line break (the start index when the run is empty). */
  end: number;
  /** How many lines the run holds. */
  lines: number;
  /** Whether each line's number is at least the one before it; only found when the scan is asked to. */
  sorted: boolean;
}

/**
 * Every `every`-th line a scan takes, marked by where it starts (a storer indexes these lines): `next` counts the
 * lines left before the next marked one (0: the next line taken is marked) and is kept up to date by the scan, which
 * appends the start of each marked line to `offsets[0..count)` (see {@linkcode addMark}).
 */
export interface LineMarks {
  /** Lines from one marked line to the next. */
  every: number;
  /** Lines left before the next marked line; {@linkcode NO_MARK} marks none. */
  next: number;
  /** The marked lines' start indexes, in `offsets[0..count)`. */
  offsets: Int32Array;
  /** How many offsets are in use. */
  count: number;
}

/**
 * Appends `offset` to `marks`, growing its array when it is full.
 *
 * @example
 * ```ts
 * const marks = { every: 2, next: 0, offsets: new Int32Array(0), count: 0 };
 * addMark(marks, 12);
 * [...marks.offsets.subarray(0, marks.count)]; // [12]
 * ```
 */
export function addMark(marks: LineMarks, offset: number): void {
  if (marks.count === marks.offsets.length) {
    const grown = new Int32Array(Math.max(16, 2 * marks.count));
    grown.set(marks.offsets);
    marks.offsets = grown;
  }
  marks.offsets[marks.count++] = offset;
}

/**
 * Finds the longest run of complete canonical lines in `bytes` from index `from` on (which must start a line), and
 * writes its end and line count into `run`. The run stops before the first line that is not canonical, is invalid or
 * has no line break before the end of `bytes`; that line is left for an exact parser to judge. With `order`, the scan
 * also finds whether the run's numbers are non-decreasing (`run.sorted`), reading each line's number as it goes;
 * without, `run.sorted` is `false`. With `marks`, it counts the lines it takes down and appends where each marked one
 * starts (see {@linkcode LineMarks}), so a storer finds its indexed lines without reading the run again.
 *
 * @example
 * ```ts
 * const run = { end: 0, lines: 0, sorted: false };
 * scanCanonicalLines(new TextEncoder().encode("2\n-3\n05\n7\n"), 0, run);
 * // The run stops before "05", which has a leading zero:
 * run; // { end: 5, lines: 2, sorted: false }
 * const marks = { every: 2, next: 1, offsets: new Int32Array(4), count: 0 };
 * scanCanonicalLines(new TextEncoder().encode("2\n3\n5\n7\n"), 0, run, true, marks);
 * run; // { end: 8, lines: 4, sorted: true }
 * // The lines "3" and "7" are marked:
 * [...marks.offsets.subarray(0, marks.count)]; // [2, 6]
 * ```
 */
export function scanCanonicalLines(
  bytes: Uint8Array,
  from: number,
  run: CanonicalRun,
  order = false,
  marks?: LineMarks,
): void {
  const length = bytes.length;
  scanned.end = from;
  scanned.lines = 0;
  scanned.sorted = order;
  scanned.last = Number.NEGATIVE_INFINITY;
  for (;;) {
    const limit = Math.min(scanned.end + SCAN_BLOCK, length);
    if (order) scanOrderedLines(bytes, limit, marks);
    else scanLines(bytes, limit, marks);
    // Stopped before a line it does not take, or at the end.
    if (scanned.end < limit || limit === length) break;
  }
  run.end = scanned.end;
  run.lines = scanned.lines;
  run.sorted = order && scanned.sorted;
}

/**
 * Bytes a call of the scan's loops goes over: a large chunk takes several calls, which V8 compiles as a whole once
 * they are hot (the code it compiles in the middle of one long loop runs it slower, measured in workerd).
 */
const SCAN_BLOCK = 16 * 1024;

/**
 * Where the scan of {@linkcode scanCanonicalLines} is, between the calls of its loops: one object of one shape, so
 * that their stores always have V8's feedback.
 */
const scanned = { end: 0, lines: 0, sorted: false, last: 0 };

/** Takes the canonical lines that start from `scanned.end` up to before `limit`, into `scanned`. */
function scanLines(bytes: Uint8Array, limit: number, marks: LineMarks | undefined): void {
  const length = bytes.length;
  const every = marks ? marks.every : NO_MARK;
  let next = marks ? marks.next : NO_MARK;
  let lines = scanned.lines;
  let end = scanned.end;
  let i = end;
  while (i < limit) {
    let first = bytes[i]!;
    if (first === MINUS) {
      if (++i === length) break;
      first = bytes[i]!;
    }
    const digits = i;
    if ((first - ONE) >>> 0 <= 8) {
      // A run of digits: the loop that most bytes go through.
      while (++i < length && (bytes[i]! - ZERO) >>> 0 <= 9);
    } else if (first === ZERO && digits === end) {
      // "0" alone; "-0" and leading zeros are not canonical.
      i++;
    } else break;
    if (i === length || bytes[i] !== LF) break;
    if (i - digits >= MAX_SAFE_LENGTH && !safeDigits(bytes, digits, i)) break;
    if (next === 0) {
      addMark(marks!, end);
      next = every - 1;
    } else next--;
    end = ++i;
    lines++;
  }
  scanned.end = end;
  scanned.lines = lines;
  if (marks) marks.next = next;
}

/** {@linkcode scanLines} that also reads each line's number, to find whether they are non-decreasing. */
function scanOrderedLines(bytes: Uint8Array, limit: number, marks: LineMarks | undefined): void {
  const length = bytes.length;
  const every = marks ? marks.every : NO_MARK;
  let next = marks ? marks.next : NO_MARK;
  let lines = scanned.lines;
  let end = scanned.end;
  let i = end;
  let sorted = scanned.sorted;
  let last = scanned.last;
  while (i < limit) {
    let first = bytes[i]!;
    const negative = first === MINUS;
    if (negative) {
      if (++i === length) break;
      first = bytes[i]!;
    }
    const digits = i;
    // In 32-bit integers (cheaper than doubles), two digits a step (half the multiplications in a row); exact up to
    // 9 digits, read again for longer lines.
    let value = first - ZERO;
    if ((first - ONE) >>> 0 <= 8) {
      i++;
      while (i + 1 < length) {
        const high = (bytes[i]! - ZERO) >>> 0;
        if (high > 9) break;
        const low = (bytes[i + 1]! - ZERO) >>> 0;
        if (low > 9) {
          value = (value * 10 + high) | 0;
          i++;
          break;
        }
        value = (value * 100 + high * 10 + low) | 0;
        i += 2;
      }
      if (i + 1 === length && (bytes[i]! - ZERO) >>> 0 <= 9) i++;
    } else if (first === ZERO && digits === end) {
      i++;
    } else break;
    if (i === length || bytes[i] !== LF) break;
    if (i - digits >= MAX_SAFE_LENGTH && !safeDigits(bytes, digits, i)) break;
    if (i - digits > 9) value = canonicalLineValue(bytes, digits, i);
    if (negative) value = -value;
    if (value < last) sorted = false;
    last = value;
    if (next === 0) {
      addMark(marks!, end);
      next = every - 1;
    } else next--;
    end = ++i;
    lines++;
  }
  scanned.end = end;
  scanned.lines = lines;
  scanned.sorted = sorted;
  scanned.last = last;
  if (marks) marks.next = next;
}

/** Whether the digits `bytes[start..end)`, without a leading zero, stay within `Number.MAX_SAFE_INTEGER`. */
function safeDigits(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== MAX_SAFE_LENGTH) return false;
  for (let k = 0; k < MAX_SAFE_LENGTH; k++) {
    const difference = bytes[start + k]! - MAX_SAFE_DIGITS[k]!;
    if (difference !== 0) return difference < 0;
  }
  return true;
}

/**
 * The number of the canonical line `bytes[start..end)` (its line break excluded).
 *
 * @example
 * ```ts
 * canonicalLineValue(new TextEncoder().encode("12\n-345\n"), 3, 7); // -345
 * ```
 */
export function canonicalLineValue(bytes: Uint8Array, start: number, end: number): number {
  const negative = bytes[start] === MINUS;
  let value = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) value = value * 10 + (bytes[i]! - ZERO);
  return negative ? -value : value;
}

/**
 * The index where the line that ends just before `end` starts: after the previous `\n`, or `start`.
 *
 * @example
 * ```ts
 * lineStartBefore(new TextEncoder().encode("12\n345\n"), 0, 6); // 3
 * ```
 */
export function lineStartBefore(bytes: Uint8Array, start: number, end: number): number {
  let i = end;
  while (i > start && bytes[i - 1] !== LF) i--;
  return i;
}

/**
 * The index just after the first `\n` in `bytes` from `from` on, or the length when there is none.
 *
 * @example
 * ```ts
 * lineEndAfter(new TextEncoder().encode("12\n345\n"), 3); // 7
 * ```
 */
export function lineEndAfter(bytes: Uint8Array, from: number): number {
  const lf = bytes.indexOf(LF, from);
  return lf < 0 ? bytes.length : lf + 1;
}

/**
 * How many `\n` bytes `bytes[start..end)` holds.
 *
 * @example
 * ```ts
 * countLineBreaks(new TextEncoder().encode("12\n345\n"), 0, 6); // 1
 * ```
 */
export function countLineBreaks(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (bytes[i] === LF) count++;
  return count;
}
