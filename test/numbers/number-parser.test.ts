import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CHUNK_RUN, LineRuns, NORMALIZED_RUN, NUMBER_RUN } from "../../src/numbers/line-runs.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";
import { NumberParser } from "../../src/numbers/number-parser.ts";
import { ascii, parseChunks, splitAt } from "./support.ts";

/** Parses `text` (split at `cuts`) and returns the error it throws. */
function parseError(text: string, cuts: number[] = []): NumberParseError {
  try {
    parseChunks(splitAt(ascii(text), cuts));
  } catch (error) {
    if (error instanceof NumberParseError) return error;
    throw error;
  }
  throw new Error(`Expected ${JSON.stringify(text)} to fail`);
}

function position(error: NumberParseError) {
  return { reason: error.reason, line: error.line, column: error.column, offset: error.offset, byte: error.byte };
}

describe("NumberParser", () => {
  test("returns the numbers of the lines each chunk completes", () => {
    const parser = new NumberParser();
    expect(Array.from(parser.push(ascii("2\n3\n1")))).toEqual([2, 3]);
    expect(Array.from(parser.push(ascii("1")))).toEqual([]);
    expect(Array.from(parser.push(ascii("\n13\n")))).toEqual([11, 13]);
    expect(Array.from(parser.end())).toEqual([]);
    expect(parser.stats).toEqual({ bytes: 10, lines: 4, numbers: 4, canonical: true });
  });

  test("returns a fresh array from every push", () => {
    const parser = new NumberParser();
    const first = parser.push(ascii("1\n2\n"));
    first[0] = 99;
    const second = parser.push(ascii("3\n"));
    expect(Array.from(first)).toEqual([99, 2]);
    expect(Array.from(second)).toEqual([3]);
    expect(first.buffer).not.toBe(second.buffer);
  });

  test("pushView returns the same numbers as push, in a view the next call reuses", () => {
    const parser = new NumberParser();
    const first = parser.pushView(ascii("1\n2\n"));
    expect(Array.from(first)).toEqual([1, 2]);
    const second = parser.pushView(ascii("3\n4\n"));
    expect(Array.from(second)).toEqual([3, 4]);
    expect(second.buffer).toBe(first.buffer);
    expect(Array.from(first)).toEqual([3, 4]);
    expect(Array.from(parser.push(ascii("5\n")))).toEqual([5]);
    expect(parser.stats).toEqual({ bytes: 10, lines: 5, numbers: 5, canonical: true });
  });

  test("accepts an empty input and empty chunks", () => {
    const parser = new NumberParser();
    expect(parser.push(new Uint8Array(0))).toHaveLength(0);
    expect(parser.end()).toHaveLength(0);
    expect(parser.stats).toEqual({ bytes: 0, lines: 0, numbers: 0, canonical: true });
  });

  test("flushes a final line without a line break at end()", () => {
    const parser = new NumberParser();
    expect(Array.from(parser.push(ascii("5\n-42")))).toEqual([5]);
    expect(Array.from(parser.end())).toEqual([-42]);
    expect(parser.stats).toEqual({ bytes: 5, lines: 2, numbers: 2, canonical: false });
  });

  test("accepts CRLF line breaks, also split between chunks", () => {
    expect(parseChunks([ascii("1\r\n22\r"), ascii("\n-3\r\n")]).numbers).toEqual([1, 22, -3]);
  });

  test("skips blank lines but counts them", () => {
    const { numbers, parser } = parseChunks([ascii("\n1\n\n\r\n2\n\n")]);
    expect(numbers).toEqual([1, 2]);
    expect(parser.stats.lines).toBe(6);
  });

  test("normalises leading zeros and -0", () => {
    const { numbers } = parseChunks([ascii("007\n-0\n-000\n0\n00\n-012\n")]);
    expect(numbers).toEqual([7, 0, 0, 0, 0, -12]);
    expect(numbers.every((n) => !Object.is(n, -0))).toBe(true);
  });

  test("accepts ±(2^53 − 1)", () => {
    expect(parseChunks([ascii("9007199254740991\n-9007199254740991\n00009007199254740991\n")]).numbers).toEqual([
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
    ]);
  });

  test("rejects 2^53 at its last digit, for both signs", () => {
    expect(position(parseError("1\n9007199254740992\n"))).toEqual({
      reason: "unsafe-integer",
      line: 2,
      column: 16,
      offset: 17,
      byte: 0x32,
    });
    expect(position(parseError("-9007199254740992"))).toEqual({
      reason: "unsafe-integer",
      line: 1,
      column: 17,
      offset: 16,
      byte: 0x32,
    });
    expect(parseError("-9007199254740992").message).toBe("Cannot parse line 1, column 17: integer exceeds ±(2^53−1)");
  });

  test("rejects an unsafe integer split across chunks at the crossing digit", () => {
    expect(position(parseError("9007199254740991\n90071992547409910\n", [20, 33]))).toMatchObject({
      reason: "unsafe-integer",
      line: 2,
      column: 17,
      offset: 33,
    });
  });

  test("fails a long line of digits at the digit that leaves the safe range", () => {
    const parser = new NumberParser();
    const line = new Uint8Array(10_000_000).fill(0x39);
    expect(() => parser.push(line)).toThrow(NumberParseError);
    expect(parser.stats.bytes).toBe(15);
    expect(() => parser.end()).toThrow(/line 1, column 16: integer exceeds/);
  });

  test.each([
    ["a space", "12 \n", 3, 0x20, "a digit or a line break"],
    ["'+'", "1\n+2\n", 1, 0x2b, "a digit, '-' or a line break"],
    ["'.'", "1\n2.5\n", 2, 0x2e, "a digit or a line break"],
    ["a letter", "1\n2\nx\n", 1, 0x78, "a digit, '-' or a line break"],
    ["NUL", "1\n\0", 1, 0x00, "a digit, '-' or a line break"],
    ["a second '-'", "--1\n", 2, 0x2d, "a digit"],
    ["'-' after digits", "1-2\n", 2, 0x2d, "a digit or a line break"],
    ["a multibyte character (first byte)", "1\n2é\n", 2, 0xc3, "a digit or a line break"],
  ])("rejects %s as an unexpected byte at its position", (_, text, column, byte, expected) => {
    const error = parseError(text);
    const lineStart = text.lastIndexOf("\n", text.length - 2) + 1;
    const line = text.slice(0, lineStart).split("\n").length;
    expect(position(error)).toEqual({ reason: "unexpected-byte", line, column, offset: lineStart + column - 1, byte });
    expect(error.message).toContain(`; expected ${expected}`);
  });

  test("reports the first byte of a multibyte character", () => {
    expect(parseError("1\n€\n").message).toBe(
      "Cannot parse line 2, column 1: unexpected byte 0xE2; expected a digit, '-' or a line break",
    );
  });

  test("rejects a lone '-' at the '-', naming the byte that followed", () => {
    expect(position(parseError("1\n-\n2\n"))).toEqual({
      reason: "lone-minus",
      line: 2,
      column: 1,
      offset: 2,
      byte: 0x0a,
    });
    expect(position(parseError("1\r\n-\r\n"))).toEqual({
      reason: "lone-minus",
      line: 2,
      column: 1,
      offset: 3,
      byte: 0x0d,
    });
    expect(position(parseError("1\n-"))).toEqual({
      reason: "lone-minus",
      line: 2,
      column: 1,
      offset: 2,
      byte: undefined,
    });
    expect(position(parseError("1\n-\n", [3]))).toMatchObject({ reason: "lone-minus", offset: 2, byte: 0x0a });
    expect(parseError("1\n-").message).toBe("Cannot parse line 2, column 1: '-' without digits");
  });

  test("rejects a CR not followed by LF, at the CR", () => {
    expect(position(parseError("12\r3\n"))).toEqual({
      reason: "stray-carriage-return",
      line: 1,
      column: 3,
      offset: 2,
      byte: 0x0d,
    });
    expect(position(parseError("1\n\r\r\n"))).toMatchObject({ reason: "stray-carriage-return", line: 2, column: 1 });
    expect(position(parseError("1\n2\r"))).toMatchObject({
      reason: "stray-carriage-return",
      line: 2,
      column: 2,
      offset: 3,
    });
  });

  test("rejects a stray CR that ends a chunk once the next chunk starts", () => {
    const parser = new NumberParser();
    expect(Array.from(parser.push(ascii("7\n12\r")))).toEqual([7]);
    expect(() => parser.push(ascii("3\n"))).toThrow(NumberParseError);
    expect(() => parser.end()).toThrow(/line 2, column 3: carriage return not followed by a line feed/);
    expect(parser.stats).toEqual({ bytes: 4, lines: 1, numbers: 1, canonical: false });
  });

  test("stays errored: every later call throws the same error", () => {
    const parser = new NumberParser();
    let first: unknown;
    try {
      parser.push(ascii("1\nx\n"));
    } catch (error) {
      first = error;
    }
    expect(first).toBeInstanceOf(NumberParseError);
    expect(() => parser.push(ascii("2\n"))).toThrow(first as Error);
    expect(() => parser.end()).toThrow(first as Error);
  });

  test("refuses calls after end()", () => {
    const parser = new NumberParser();
    parser.end();
    expect(() => parser.push(ascii("1\n"))).toThrow("Cannot push: the parser has already ended");
    expect(() => parser.end()).toThrow("Cannot end: the parser has already ended");
  });

  test.each([
    ["", true],
    ["1\n", true],
    ["2\n-3\n0\n10\n", true],
    ["1", false],
    ["1\r\n", false],
    ["1\n\n2\n", false],
    ["\n", false],
    ["01\n", false],
    ["00\n", false],
    ["10\n100\n", true],
    ["-0\n", false],
    ["-01\n", false],
  ])("canonical(%j) is %s", (text, canonical) => {
    expect(parseChunks(splitAt(ascii(text), [1])).parser.stats.canonical).toBe(canonical);
  });

  test("canonical sees a leading zero split from its number by a chunk boundary", () => {
    expect(parseChunks([ascii("0"), ascii("7\n")]).parser.stats.canonical).toBe(false);
    expect(parseChunks([ascii("1"), ascii("0\n")]).parser.stats.canonical).toBe(true);
  });

  test("property: encoded safe integers parse back in any chunking, canonically", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.integer())),
        fc.array(fc.nat()),
        (values, cuts) => {
          const { numbers, parser } = parseChunks(splitAt(encodeNumbers(values), cuts));
          expect(numbers).toEqual(values.map((n) => (Object.is(n, -0) ? 0 : n)));
          expect(parser.stats.canonical).toBe(true);
          expect(parser.stats.numbers).toBe(values.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("property: long digit runs (past nine digits and past 2^53) parse like a reference parser", () => {
    // The parser folds digits nine at a time; lines of 1 to 25 digits, some with leading zeros, cross those groups,
    // the chunk cuts and the safe range at every position.
    const line = fc
      .tuple(
        fc.boolean(),
        fc.nat({ max: 12 }),
        fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 25, size: "max" }),
      )
      .map(
        ([negative, zeros, digits]) => `${negative ? "-" : ""}${"0".repeat(zeros % 3 === 0 ? zeros : 0)}${digits}\n`,
      );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (lines, cuts) => {
        const text = lines.join("");
        const expected = referenceParse(text);
        if ("numbers" in expected) expect(parseChunks(splitAt(ascii(text), cuts)).numbers).toEqual(expected.numbers);
        else expect(position(parseError(text, cuts))).toMatchObject(expected.error);
      }),
      { numRuns: 1000 },
    );
  });

  test("property: long runs of common lines among others parse like a reference parser", () => {
    // Chunks long enough for the parser's fast loop (lines of an optional '-', a digit from 1 to 9, up to 14 more
    // digits and \n or \r\n, read without the state machine), interrupted by every kind of line it leaves to the
    // state machine: numbers too long for it, leading zeros, "-0", blank lines, a lone '-', stray bytes anywhere.
    const common = fc
      .tuple(
        fc.boolean(),
        fc.constantFrom(..."123456789"),
        fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 17 }),
        fc.constantFrom("\n", "\n", "\n", "\r\n"),
      )
      .map(([negative, lead, digits, end]) => `${negative ? "-" : ""}${lead}${digits}${end}`);
    const other = fc.constantFrom(
      "0\n",
      "-0\n",
      "007\n",
      "\n",
      "\r\n",
      "-\n",
      "12a\n",
      "3\r4\n",
      `${"9".repeat(16)}\n`,
    );
    // A byte just outside the digits, or far from them, among digits that would otherwise be read four at a time.
    const stray = fc
      .tuple(
        fc.constantFrom(..."123456789"),
        fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 8 }),
        fc.constantFrom("/", ":", "a", " ", "\x7f", "\r"),
        fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 8 }),
      )
      .map(([lead, before, byte, after]) => `${lead}${before}${byte}${after}\n`);
    const line = fc.oneof(
      { weight: 24, arbitrary: common },
      { weight: 2, arbitrary: other },
      { weight: 1, arbitrary: stray },
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 80 }),
        fc.string({ unit: fc.constantFrom(..."0123456789\n"), maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 2 }),
        (lines, tail, cuts) => {
          const text = lines.join("") + tail;
          const expected = referenceParse(text);
          if ("numbers" in expected) {
            const { numbers, parser } = parseChunks(splitAt(ascii(text), cuts));
            expect(numbers).toEqual(expected.numbers);
            const canonicalText = expected.numbers.map((n) => `${n}\n`).join("");
            expect(parser.stats).toEqual({
              bytes: text.length,
              lines: text.split("\n").length - (text.endsWith("\n") || text === "" ? 1 : 0),
              numbers: expected.numbers.length,
              canonical: canonicalText === text,
            });
          } else {
            expect(position(parseError(text, cuts))).toMatchObject(expected.error);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("reads a chunk whose buffer is refilled and pushed again", () => {
    const parser = new NumberParser();
    const buffer = ascii("1234567\n2345678\n3456789\n");
    expect(Array.from(parser.push(buffer))).toEqual([1234567, 2345678, 3456789]);
    buffer.set(ascii("7654321\n8765432\n9876543\n"));
    expect(Array.from(parser.push(buffer))).toEqual([7654321, 8765432, 9876543]);
    expect(Array.from(parser.push(buffer.subarray(0, 16)))).toEqual([7654321, 8765432]);
    expect(Array.from(parser.push(buffer.subarray(0, 24)))).toEqual([7654321, 8765432, 9876543]);
  });

  test("property: random bytes parse like a reference parser, or fail where it fails", () => {
    const unit = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(..."0123456789") },
      { weight: 6, arbitrary: fc.constant("\n") },
      { weight: 1, arbitrary: fc.constantFrom("-", "\r", " ", "a") },
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const expected = referenceParse(text);
        if ("numbers" in expected) {
          const { numbers, parser } = parseChunks(splitAt(ascii(text), cuts));
          expect(numbers).toEqual(expected.numbers);
          expect(parser.stats.canonical).toBe(expected.numbers.map((n) => `${n}\n`).join("") === text);
        } else {
          expect(position(parseError(text, cuts))).toMatchObject(expected.error);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

type Expected =
  | { numbers: number[] }
  | { error: { reason: NumberParseError["reason"]; line: number; column: number; offset: number } };

/** A straightforward string-based parser of the same grammar (ASCII input only). */
function referenceParse(text: string): Expected {
  const numbers: number[] = [];
  const lines = text.split("\n");
  let lineOffset = 0;
  for (let k = 0; k < lines.length; k++) {
    const content = lines[k]!;
    const terminated = k < lines.length - 1;
    const fail = (reason: NumberParseError["reason"], index: number): Expected => ({
      error: { reason, line: k + 1, column: index + 1, offset: lineOffset + index },
    });
    const negative = content.startsWith("-");
    let digits = "";
    for (let j = negative ? 1 : 0; j < content.length; j++) {
      const char = content[j]!;
      if (char >= "0" && char <= "9") {
        digits += char;
        if (BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER)) return fail("unsafe-integer", j);
      } else if (char === "\r") {
        if (!(terminated && j === content.length - 1)) return fail("stray-carriage-return", j);
      } else {
        return fail("unexpected-byte", j);
      }
    }
    if (digits !== "") numbers.push(negative ? 0 - Number(digits) : Number(digits));
    else if (negative) return fail("lone-minus", 0);
    lineOffset += content.length + 1;
  }
  return { numbers };
}

describe("NumberParser.pushLines marks the lines a storer asks for, with the order of canonical runs", () => {
  test("a run the parser writes in canonical form over several windows keeps the order of all its lines", () => {
    const numbers = Array.from({ length: 400 }, (_, k) => 1000 + k);
    const orderOf = (values: number[]) => {
      const parser = new NumberParser();
      const runs = new LineRuns();
      runs.markEvery = 1000;
      runs.order = true;
      parser.pushLines(ascii(values.map((n) => `${n}\r\n`).join("")), runs);
      // 400 lines of 6 bytes: one run, written and extended a window at a time.
      expect([runs.count, runs.kind(0), runs.lines(0)]).toEqual([1, NORMALIZED_RUN, 400]);
      return runs.sorted(0);
    };
    expect(orderOf(numbers)).toBe(true);
    // One descent anywhere, on either side of a window's end or across it.
    for (let k = 1; k < numbers.length; k++) {
      const swapped = numbers.slice();
      [swapped[k - 1], swapped[k]] = [swapped[k]!, swapped[k - 1]!];
      expect(orderOf(swapped)).toBe(false);
    }
  });

  test("a chunk of lines in canonical form is one run, however many marked lines it holds", () => {
    // 5,000 lines of 6 bytes, the index every 64 lines: one run (one copy into a part) with 79 marks.
    const parser = new NumberParser();
    const runs = new LineRuns();
    runs.markEvery = 64;
    runs.order = true;
    parser.pushLines(ascii(Array.from({ length: 5000 }, (_, k) => `${10_000 + k}\n`).join("")), runs);
    expect([runs.count, runs.kind(0), runs.lines(0), runs.sorted(0)]).toEqual([1, CHUNK_RUN, 5000, true]);
    expect([...runs.marksOf(0)]).toEqual(Array.from({ length: 79 }, (_, k) => 64 * 6 * k));
  });

  test("a run of lines in canonical form marks where each line whose index is a multiple of markEvery starts", () => {
    fc.assert(
      fc.property(
        fc
          .tuple(
            fc.array(fc.oneof(fc.integer({ min: -50, max: 1000 }), fc.maxSafeInteger(), fc.integer()), {
              maxLength: 300,
            }),
            fc.boolean(),
            fc.array(fc.constantFrom("007", "", "-0"), { maxLength: 3 }),
            fc.constantFrom("\n", "\r\n"),
            fc.array(fc.nat(300), { maxLength: 4 }),
          )
          // Sorted or not, big and small numbers, a few lines that are not canonical in front and in between, with
          // \n or \r\n endings (the latter written in canonical form by the parser, in runs it extends).
          .map(([numbers, sort, odd, ending, at]) => {
            const lines = [...odd, ...(sort ? numbers.sort((x, y) => x - y) : numbers).map(String)];
            for (const k of at) if (k < lines.length) lines[k] = `0${lines[k]!.replace("-", "")}`;
            return lines.map((line) => `${line}${ending}`).join("");
          }),
        fc.array(fc.nat(3000), { maxLength: 6 }),
        // Cuts close together, and cuts further apart than the lines the parser normalizes at a time.
        fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 100, max: 400 })),
        fc.boolean(),
        (text, cuts, every, order) => {
          const parser = new NumberParser();
          const runs = new LineRuns();
          runs.markEvery = every;
          runs.order = order;
          let stored = 0;
          for (const chunk of splitAt(ascii(text), cuts)) {
            parser.pushLines(chunk, runs);
            for (let k = 0; k < runs.count; k++) {
              const count = runs.lines(k);
              const kind = runs.kind(k);
              if (kind !== NUMBER_RUN) {
                const bytes = kind === CHUNK_RUN ? chunk : runs.bytes;
                const lines = new TextDecoder().decode(bytes.subarray(runs.start(k), runs.end(k))).split("\n");
                const values = lines.slice(0, -1).map(Number);
                expect(values).toHaveLength(count);
                expect(runs.sorted(k)).toBe(order && values.every((n, i) => i === 0 || values[i - 1]! <= n));
                // The run's lines are stored lines stored … stored + count − 1: those that are multiples of every
                // are marked, by where they start in the run.
                const starts = lines.slice(0, -1).map((_, j) => lines.slice(0, j).join("\n").length + (j > 0 ? 1 : 0));
                const marked = starts.filter((_, j) => (stored + j) % every === 0);
                expect([...runs.marksOf(k)]).toEqual(marked);
              } else {
                expect(runs.sorted(k)).toBeUndefined();
                expect(runs.marksOf(k)).toHaveLength(0);
              }
              stored += count;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
