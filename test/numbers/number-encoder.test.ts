import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  DIGIT_PAIRS,
  digitCount,
  type EncodedLines,
  encodedLineLength,
  encodeLinesInto,
  encodeNumbers,
  encodeNumbersInto,
} from "../../src/numbers/number-encoder.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("encodeNumbersInto", () => {
  test("writes decimal lines from targetOffset on", () => {
    const target = new Uint8Array(16).fill(0x2e);
    expect(encodeNumbersInto([0, -7, 120], 0, 3, target, 2)).toEqual({ read: 3, written: 9 });
    expect(text(target)).toBe("..0\n-7\n120\n.....");
  });

  test("encodes numbers[start..end) only", () => {
    const target = new Uint8Array(8);
    expect(encodeNumbersInto([1, 22, 333, 4444], 1, 3, target, 0)).toEqual({ read: 2, written: 7 });
    expect(text(target.subarray(0, 7))).toBe("22\n333\n");
  });

  test("stops before a line that does not fit, leaving its bytes untouched", () => {
    const target = new Uint8Array(8).fill(0x2e);
    expect(encodeNumbersInto([2, 3, 5, -7, 11], 0, 5, target, 0)).toEqual({ read: 3, written: 6 });
    expect(text(target)).toBe("2\n3\n5\n..");
  });

  test("fills a target exactly", () => {
    const target = new Uint8Array(9);
    expect(encodeNumbersInto([2, 3, 5, -7, 11], 0, 5, target, 0)).toEqual({ read: 4, written: 9 });
    expect(text(target)).toBe("2\n3\n5\n-7\n");
  });

  test("writes nothing into an empty target or an empty range", () => {
    expect(encodeNumbersInto([1, 2], 0, 2, new Uint8Array(0), 0)).toEqual({ read: 0, written: 0 });
    expect(encodeNumbersInto([1, 2], 0, 2, new Uint8Array(4), 4)).toEqual({ read: 0, written: 0 });
    expect(encodeNumbersInto([1, 2], 1, 1, new Uint8Array(4), 0)).toEqual({ read: 0, written: 0 });
    expect(encodeNumbersInto([], 0, 0, new Uint8Array(4), 0)).toEqual({ read: 0, written: 0 });
  });

  test("needs room for the line break too", () => {
    expect(encodeNumbersInto([12], 0, 1, new Uint8Array(2), 0)).toEqual({ read: 0, written: 0 });
    expect(encodeNumbersInto([12], 0, 1, new Uint8Array(3), 0)).toEqual({ read: 1, written: 3 });
  });

  test("writes -0 as 0 and handles the extremes", () => {
    const numbers = [-0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 31, -(2 ** 31), 2 ** 31 - 1];
    expect(text(encodeNumbers(numbers))).toBe(
      "0\n9007199254740991\n-9007199254740991\n2147483648\n-2147483648\n2147483647\n",
    );
  });

  test.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53)])("rejects %s", (value) => {
    const numbers = [1, 2, 3, value];
    expect(() => encodeNumbersInto(numbers, 0, 4, new Uint8Array(64), 0)).toThrow(
      new RangeError(`Cannot encode value ${value} at index 3: not a safe integer`),
    );
  });

  test("rejects indices out of range", () => {
    const target = new Uint8Array(4);
    expect(() => encodeNumbersInto([1], -1, 1, target, 0)).toThrow(RangeError);
    expect(() => encodeNumbersInto([1], 0, 2, target, 0)).toThrow(RangeError);
    expect(() => encodeNumbersInto([1, 2], 2, 1, target, 0)).toThrow(RangeError);
    expect(() => encodeNumbersInto([1], 0, 1, target, 5)).toThrow(
      "Cannot encode: targetOffset must be an integer in [0, 4], got 5",
    );
    expect(() => encodeNumbersInto([1], 0.5, 1, target, 0)).toThrow(RangeError);
  });

  test("property: matches String(n) lines for any safe integers and target size", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.integer({ min: -99, max: 99 }))),
        fc.nat({ max: 200 }),
        (numbers, size) => {
          const target = new Uint8Array(size);
          const { read, written } = encodeNumbersInto(numbers, 0, numbers.length, target, 0);
          const lines = numbers.map((n) => `${n}\n`);
          expect(text(target.subarray(0, written))).toBe(lines.slice(0, read).join(""));
          const next = lines[read];
          if (next !== undefined) expect(written + next.length).toBeGreaterThan(size);
        },
      ),
    );
  });

  test("property: either side of the int32 range, from a Float64Array, lines as String(n) or the same error", () => {
    // Non-negative int32 values take a shorter path than the rest (negative, larger, or no safe integer at all).
    const edge = fc.oneof(
      ...[0, 2 ** 31, -(2 ** 31), 2 ** 32, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER].map((base) =>
        fc.integer({ min: -3, max: 3 }).map((delta) => base + delta),
      ),
      fc.constantFrom(-0, 2 ** 31 - 0.5, -(2 ** 31) - 0.5, 0.5, -0.5),
    );
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 12 }), fc.nat({ max: 120 }), (values, size) => {
        const numbers = Float64Array.from(values);
        const target = new Uint8Array(size);
        const bad = values.findIndex((n) => !Number.isSafeInteger(n));
        let result: { read: number; written: number } | undefined;
        let error: unknown;
        try {
          result = encodeNumbersInto(numbers, 0, numbers.length, target, 0);
        } catch (caught) {
          error = caught;
        }
        const lines = values.map((n) => `${Object.is(n, -0) ? 0 : n}\n`);
        const fits = lines.findIndex((_, k) => lines.slice(0, k + 1).join("").length > size);
        const stop = fits === -1 ? values.length : fits;
        // A number is checked before its room: the first that does not fit still throws when it is no safe integer.
        if (bad !== -1 && bad <= stop) {
          expect(error).toEqual(
            new RangeError(`Cannot encode value ${values[bad]} at index ${bad}: not a safe integer`),
          );
          return;
        }
        expect(result).toEqual({ read: stop, written: lines.slice(0, stop).join("").length });
        expect(text(target.subarray(0, result!.written))).toBe(lines.slice(0, stop).join(""));
      }),
    );
  });

  test("property: writes inside a view of a larger buffer only, from any offset", () => {
    // Digits are stored two and four at a time through a view of the target's buffer: the view must start at the
    // target, and no store may reach past the line's bytes.
    const powers = Array.from({ length: 16 }, (_, k) => 10 ** k);
    const value = fc.oneof(
      fc.maxSafeInteger(),
      fc.constantFrom(...powers, ...powers.map((p) => p - 1), ...powers.map((p) => -p)),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 20 }),
        fc.nat({ max: 40 }),
        fc.nat({ max: 400 }),
        fc.nat({ max: 40 }),
        (numbers, before, size, offset) => {
          const buffer = new Uint8Array(before + size + 8).fill(0xee);
          const target = buffer.subarray(before, before + size);
          const from = Math.min(offset, size);
          const { read, written } = encodeNumbersInto(numbers, 0, numbers.length, target, from);
          const lines = numbers.map((n) => `${n}\n`);
          expect(text(target.subarray(from, from + written))).toBe(lines.slice(0, read).join(""));
          const untouched = [...buffer.subarray(0, before + from), ...buffer.subarray(before + from + written)];
          expect(untouched.every((byte) => byte === 0xee)).toBe(true);
        },
      ),
    );
  });
});

describe("encodeLinesInto", () => {
  const fresh = (): EncodedLines => ({ read: 0, written: 0, last: Number.NEGATIVE_INFINITY, sorted: true });

  test("follows the order across calls, from the number before the first", () => {
    const lines = fresh();
    const target = new Uint8Array(32);
    encodeLinesInto([-3, -0, 0, 7], 0, 4, target, 0, lines);
    expect(lines).toEqual({ read: 4, written: 9, last: 7, sorted: true });
    encodeLinesInto([7, 8], 0, 2, target, 9, lines);
    expect(lines).toEqual({ read: 2, written: 4, last: 8, sorted: true });
    encodeLinesInto([5, 9], 0, 2, target, 13, lines);
    expect(lines).toEqual({ read: 2, written: 4, last: 9, sorted: false });
    encodeLinesInto([10], 0, 1, target, 17, lines);
    expect(lines.sorted).toBe(false);
    expect(text(target.subarray(0, 20))).toBe("-3\n0\n0\n7\n7\n8\n5\n9\n10\n");
  });

  test("counts only the numbers it encoded: one that does not fit, or none, leaves the order as it was", () => {
    const lines = fresh();
    encodeLinesInto([5, 1], 0, 2, new Uint8Array(3), 0, lines);
    expect(lines).toEqual({ read: 1, written: 2, last: 5, sorted: true });
    encodeLinesInto([1], 0, 1, new Uint8Array(1), 0, lines);
    expect(lines).toEqual({ read: 0, written: 0, last: 5, sorted: true });
  });

  test("property: the same bytes as encodeNumbersInto, and the order of the numbers read, in any pieces", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -99, max: 99 }), fc.constant(-0))),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1 }),
        fc.nat({ max: 300 }),
        (values, sortFirst, pieces, size) => {
          const numbers = sortFirst ? [...values].sort((a, b) => a - b) : values;
          const target = new Uint8Array(size);
          const lines = fresh();
          let read = 0;
          let written = 0;
          for (let k = 0; read < numbers.length; k++) {
            const end = Math.min(numbers.length, read + pieces[k % pieces.length]!);
            encodeLinesInto(numbers, read, end, target, written, lines);
            read += lines.read;
            written += lines.written;
            if (read < end) break;
          }
          const expected = new Uint8Array(size);
          expect(encodeNumbersInto(numbers, 0, numbers.length, expected, 0)).toEqual({ read, written });
          expect(target).toEqual(expected);
          const encoded = numbers.slice(0, read);
          expect(lines.sorted).toBe(encoded.every((n, i) => i === 0 || encoded[i - 1]! <= n));
          if (lines.sorted && read > 0) expect(lines.last).toBe(encoded[read - 1]);
        },
      ),
    );
  });

  test.each([1.5, Number.NaN, Number.NEGATIVE_INFINITY, 2 ** 31 + 0.5, 2 ** 53])("rejects %s", (value) => {
    expect(() => encodeLinesInto([0, value], 0, 2, new Uint8Array(64), 0, fresh())).toThrow(
      new RangeError(`Cannot encode value ${value} at index 1: not a safe integer`),
    );
  });
});

describe("encodedLineLength", () => {
  test.each([
    [0, 2],
    [9, 2],
    [10, 3],
    [-1, 3],
    [-10, 4],
    [999_999_999, 10],
    [Number.MAX_SAFE_INTEGER, 17],
    [-Number.MAX_SAFE_INTEGER, 18],
  ])("encodedLineLength(%d) is %d", (value, length) => {
    expect(encodedLineLength(value)).toBe(length);
  });

  test("rejects a non-safe integer", () => {
    expect(() => encodedLineLength(0.1)).toThrow(new RangeError("Cannot measure value 0.1: not a safe integer"));
  });

  test("property: equals the length of String(n) plus one", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(encodedLineLength(n)).toBe(String(n).length + 1);
      }),
    );
  });
});

describe("encodeNumbers", () => {
  test("returns exactly the encoded bytes", () => {
    const bytes = encodeNumbers(new Float64Array([2, -3, 0, 1000]));
    expect(bytes.length).toBe(12);
    expect(text(bytes)).toBe("2\n-3\n0\n1000\n");
  });

  test("returns an empty array for no numbers", () => {
    expect(encodeNumbers([])).toHaveLength(0);
  });

  test("names the index of a number it cannot encode", () => {
    expect(() => encodeNumbers([1, 2, Number.NaN])).toThrow("Cannot encode value NaN at index 2: not a safe integer");
  });
});

describe("DIGIT_PAIRS", () => {
  test("holds the two ASCII digits of every n in 0..99", () => {
    for (let n = 0; n < 100; n++) {
      expect(String.fromCharCode(DIGIT_PAIRS[2 * n]!, DIGIT_PAIRS[2 * n + 1]!)).toBe(String(n).padStart(2, "0"));
    }
  });
});

describe("digitCount", () => {
  test("counts the digits at every power of ten", () => {
    expect(digitCount(0)).toBe(1);
    for (let digits = 1; digits <= 15; digits++) {
      expect(digitCount(10 ** digits - 1)).toBe(digits);
      expect(digitCount(10 ** digits)).toBe(digits + 1);
    }
    expect(digitCount(Number.MAX_SAFE_INTEGER)).toBe(16);
  });

  test("property: equals the length of String(n) for non-negative safe integers", () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(digitCount(n)).toBe(String(n).length);
      }),
    );
  });
});
