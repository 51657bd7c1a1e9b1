const LF = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const INT32_MAX = 0x7fffffff;

/**
 * Two ASCII digits per entry: `DIGIT_PAIRS[2n]` and `DIGIT_PAIRS[2n + 1]` are the tens and units digits of n,
 * for n in 0..99, so an encoder can write two digits per division by 100.
 *
 * @example
 * ```ts
 * String.fromCharCode(DIGIT_PAIRS[2 * 42]!, DIGIT_PAIRS[2 * 42 + 1]!); // "42"
 * String.fromCharCode(DIGIT_PAIRS[2 * 7]!, DIGIT_PAIRS[2 * 7 + 1]!); // "07"
 * ```
 */
export const DIGIT_PAIRS: Readonly<Uint8Array> = Uint8Array.from(
  { length: 200 },
  (_, i) => ZERO + (i & 1 ? (i >> 1) % 10 : Math.floor(i / 20)),
);

/**
 * `PAIRS16[n]`: the two ASCII digits of n (0..99, zero-padded) as one little-endian 16-bit word, to be stored with
 * one `DataView.setUint16(…, true)`.
 *
 * @example
 * ```ts
 * const out = new Uint8Array(2);
 * new DataView(out.buffer).setUint16(0, PAIRS16[7]!, true);
 * new TextDecoder().decode(out); // "07"
 * ```
 */
export const PAIRS16: Readonly<Uint16Array> = Uint16Array.from(
  { length: 100 },
  (_, n) => DIGIT_PAIRS[2 * n]! | (DIGIT_PAIRS[2 * n + 1]! << 8),
);

/**
 * `QUADS[n]`: the four ASCII digits of n (0..9999, zero-padded) as one little-endian 32-bit word, to be stored with
 * one `DataView.setUint32(…, true)`.
 *
 * @example
 * ```ts
 * const out = new Uint8Array(4);
 * new DataView(out.buffer).setUint32(0, QUADS[42]!, true);
 * new TextDecoder().decode(out); // "0042"
 * ```
 */
export const QUADS: Readonly<Uint32Array> = Uint32Array.from(
  { length: 10_000 },
  (_, n) => (PAIRS16[Math.floor(n / 100)]! | (PAIRS16[n % 100]! << 16)) >>> 0,
);

/**
 * Encodes `numbers[start..end)` as ASCII decimal lines, each followed by `\n`, straight into `target` from
 * `targetOffset` on. Stops before the first number whose line does not fit entirely, so no line is ever written
 * in part. `-0` is written as `0`.
 *
 * @returns `read`: how many numbers were encoded; `written`: how many bytes they took.
 * @throws {RangeError} when a number to encode is not a safe integer, or when the indices are out of range.
 *
 * @example
 * ```ts
 * const target = new Uint8Array(8);
 * // "-7\n" would not fit in the 2 bytes left:
 * encodeNumbersInto([2, 3, 5, -7, 11], 0, 5, target, 0); // { read: 3, written: 6 }
 * ```
 */
export function encodeNumbersInto(
  numbers: ArrayLike<number>,
  start: number,
  end: number,
  target: Uint8Array,
  targetOffset: number,
): { read: number; written: number } {
  const lines: EncodedLines = { read: 0, written: 0, last: Number.NEGATIVE_INFINITY, sorted: true };
  encodeLinesInto(numbers, start, end, target, targetOffset, lines);
  return { read: lines.read, written: lines.written };
}

/** Where {@linkcode encodeLinesInto} stopped, and the order of the numbers it encoded. */
export interface EncodedLines {
  /** How many numbers were encoded. */
  read: number;
  /** How many bytes they took. */
  written: number;
  /** The last number encoded; on entry, the number before the first (−∞ for none). Kept when none is encoded. */
  last: number;
  /** Whether every number encoded is at least the one before it (`last` on entry for the first); false stays false. */
  sorted: boolean;
}

/**
 * {@linkcode encodeNumbersInto} that also follows the order of the numbers it encodes, in the same pass, and reports
 * into `lines` (reused from call to call: nothing is allocated). For a writer that records whether its lines are
 * non-decreasing without reading them a second time.
 *
 * @throws {RangeError} when a number to encode is not a safe integer, or when the indices are out of range.
 *
 * @example
 * ```ts
 * const lines: EncodedLines = { read: 0, written: 0, last: Number.NEGATIVE_INFINITY, sorted: true };
 * encodeLinesInto([2, 3, 5], 0, 3, new Uint8Array(16), 0, lines);
 * encodeLinesInto([4], 0, 1, new Uint8Array(16), 0, lines);
 * [lines.read, lines.written, lines.last, lines.sorted]; // [1, 2, 4, false]
 * ```
 */
export function encodeLinesInto(
  numbers: ArrayLike<number>,
  start: number,
  end: number,
  target: Uint8Array,
  targetOffset: number,
  lines: EncodedLines,
): void {
  checkIndex("start", start, 0, numbers.length);
  checkIndex("end", end, start, numbers.length);
  checkIndex("targetOffset", targetOffset, 0, target.length);
  // Digits go in from the end of each line backwards, four per division by 10,000 and then two per division by
  // 100, each group as one little-endian store of its table entry (unaligned: a DataView's stores allow that).
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  const limit = target.length;
  let last = lines.last;
  let sorted = lines.sorted;
  let pos = targetOffset;
  let i = start;
  for (; i < end; i++) {
    const value = numbers[i]!;
    let small = value | 0;
    let p: number;
    let newline: number;
    if (small === value && small >= 0) {
      // The common number, a non-negative int32 (or -0, written as 0): no sign and no check beyond that comparison.
      newline = pos + digitCount(small);
      if (newline >= limit) break;
      p = newline;
    } else {
      const negative = value < 0;
      let rest = negative ? -value : value;
      if (!Number.isSafeInteger(rest)) throw notSafe("encode", value, i);
      newline = pos + (negative ? 1 : 0) + digitCount(rest);
      if (newline >= limit) break;
      if (negative) target[pos] = MINUS;
      p = newline;
      // In floating point while the rest exceeds int32 (exact: for values below 2^53 the quotient by 10,000 is never
      // within rounding distance of the next integer), then in faster int32 arithmetic.
      while (rest > INT32_MAX) {
        const high = Math.floor(rest / 10_000);
        p -= 4;
        view.setUint32(p, QUADS[rest - high * 10_000]!, true);
        rest = high;
      }
      small = rest | 0;
    }
    if (value < last) sorted = false;
    last = value;
    target[newline] = LF;
    while (small >= 10_000) {
      const high = (small / 10_000) | 0;
      p -= 4;
      view.setUint32(p, QUADS[small - high * 10_000]!, true);
      small = high;
    }
    if (small >= 100) {
      const high = (small / 100) | 0;
      p -= 2;
      view.setUint16(p, PAIRS16[small - high * 100]!, true);
      small = high;
    }
    if (small >= 10) {
      p -= 2;
      view.setUint16(p, PAIRS16[small]!, true);
    } else {
      target[--p] = ZERO + small;
    }
    pos = newline + 1;
  }
  lines.read = i - start;
  lines.written = pos - targetOffset;
  lines.last = last;
  lines.sorted = sorted;
}

/**
 * The length in bytes of `value`'s encoded line: an optional `-`, the digits and the `\n`.
 *
 * @throws {RangeError} when `value` is not a safe integer.
 *
 * @example
 * ```ts
 * encodedLineLength(-120); // "-120\n".length
 * ```
 */
export function encodedLineLength(value: number): number {
  if (!Number.isSafeInteger(value)) throw notSafe("measure", value);
  return lineLength(value);
}

/**
 * Encodes all `numbers` as ASCII decimal lines, each followed by `\n`, into an array of exactly the right size.
 *
 * @throws {RangeError} when a number is not a safe integer.
 *
 * @example
 * ```ts
 * new TextDecoder().decode(encodeNumbers([2, -3, 0])); // "2\n-3\n0\n"
 * ```
 */
export function encodeNumbers(numbers: ArrayLike<number>): Uint8Array {
  let bytes = 0;
  for (let i = 0; i < numbers.length; i++) {
    const value = numbers[i]!;
    if (!Number.isSafeInteger(value)) throw notSafe("encode", value, i);
    bytes += lineLength(value);
  }
  const target = new Uint8Array(bytes);
  encodeNumbersInto(numbers, 0, numbers.length, target, 0);
  return target;
}

/** The encoded line length of a safe integer. */
function lineLength(value: number): number {
  return value < 0 ? digitCount(-value) + 2 : digitCount(value) + 1;
}

/**
 * The number of decimal digits of a non-negative safe integer (1 for 0), by comparisons only. The caller makes
 * sure `x` is one: for other values the result means nothing.
 *
 * @example
 * ```ts
 * digitCount(0); // 1
 * digitCount(120); // 3
 * digitCount(Number.MAX_SAFE_INTEGER); // 16
 * ```
 */
export function digitCount(x: number): number {
  if (x < 1e8) {
    if (x < 1e4) return x < 100 ? (x < 10 ? 1 : 2) : x < 1000 ? 3 : 4;
    return x < 1e6 ? (x < 1e5 ? 5 : 6) : x < 1e7 ? 7 : 8;
  }
  if (x < 1e12) return x < 1e10 ? (x < 1e9 ? 9 : 10) : x < 1e11 ? 11 : 12;
  return x < 1e14 ? (x < 1e13 ? 13 : 14) : x < 1e15 ? 15 : 16;
}

function notSafe(action: string, value: number, index?: number): RangeError {
  const where = index === undefined ? "" : ` at index ${index}`;
  return new RangeError(`Cannot ${action} value ${value}${where}: not a safe integer`);
}

function checkIndex(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`Cannot encode: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
}
