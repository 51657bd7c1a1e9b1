import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  CompleteLinesStream,
  type HeldLine,
  LONGEST_HELD_LINE,
  NO_HELD_LINE,
} from "../../src/numbers/complete-lines-stream.ts";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";
import { ascii, collect, parseChunks, splitAt, streamOf } from "./support.ts";

/** What parsing bytes gave: the numbers, or the error with its position. */
type Outcome = { numbers: number[]; lines: number } | { error: Record<string, unknown> };

function errorFields(error: NumberParseError): Record<string, unknown> {
  return { reason: error.reason, line: error.line, column: error.column, offset: error.offset, byte: error.byte };
}

/** Parses `bytes` whole. */
function parseWhole(bytes: Uint8Array): Outcome {
  try {
    const { numbers, parser } = parseChunks([bytes]);
    return { numbers, lines: parser.stats.lines };
  } catch (error) {
    if (error instanceof NumberParseError) return { error: errorFields(error) };
    throw error;
  }
}

/**
 * Parses `bytes` as a tus upload does: cut into `pieces` (each a PATCH, itself arriving in `chunks`), each piece's
 * complete lines parsed on their own, the incomplete line carried to the next piece, errors told in the whole input.
 */
async function parsePieces(bytes: Uint8Array, pieceCuts: number[], chunkCuts: number[], compactAt: number) {
  const pieces = splitAt(bytes, pieceCuts);
  let held: HeldLine = NO_HELD_LINE;
  let consumed = 0;
  let lines = 0;
  const numbers: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    const cut = new CompleteLinesStream({ held, complete: index === pieces.length - 1, compactAt });
    const start = consumed - held.bytes.byteLength - held.skipped;
    const output = await collect(streamOf(splitAt(piece, chunkCuts)).pipeThrough(cut));
    expect(cut.inputBytes).toBe(piece.byteLength);
    try {
      const parsed = parseChunks(output);
      numbers.push(...parsed.numbers);
      lines += parsed.parser.stats.lines;
    } catch (error) {
      if (!(error instanceof NumberParseError)) throw error;
      const position = cut.originalPosition(error);
      return {
        error: errorFields(
          new NumberParseError({
            reason: error.reason,
            line: lines + error.line,
            column: position.column,
            offset: start + position.offset,
            byte: error.byte,
          }),
        ),
      };
    }
    consumed += piece.byteLength;
    held = cut.held;
    expect(held.bytes.byteLength).toBeLessThanOrEqual(Math.max(LONGEST_HELD_LINE, compactAt) + piece.byteLength);
  }
  return { numbers, lines };
}

/** Text of lines, valid and not: numbers, runs of leading zeros, CRLF, blank lines, stray bytes. */
const lineText = fc
  .array(
    fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }).map(String),
      fc
        .tuple(fc.constantFrom("", "-"), fc.integer({ min: 2, max: 300 }), fc.nat(99999))
        .map(([sign, zeros, value]) => `${sign}${"0".repeat(zeros)}${value}`),
      fc.constantFrom("", "\r", "-", "9007199254740991", "9007199254740992", "12x", "1\r2", "00000000000000000000000"),
    ),
    { maxLength: 40 },
  )
  .chain((lines) =>
    fc
      .constantFrom("\n", "\r\n")
      .chain((ending) => fc.boolean().map((last) => lines.join(ending) + (last ? ending : ""))),
  );

describe("CompleteLinesStream", () => {
  test("passes on the complete lines and holds the last one", async () => {
    const cut = new CompleteLinesStream({ held: NO_HELD_LINE, complete: false });
    const output = await collect(streamOf([ascii("12\n3"), ascii("4\n56")]).pipeThrough(cut));
    expect(new TextDecoder().decode(Buffer.concat(output))).toBe("12\n34\n");
    expect(new TextDecoder().decode(cut.held.bytes)).toBe("56");
  });

  test("starts with the held line and passes on the last one when complete", async () => {
    const held = { bytes: ascii("-0"), skipped: 5 };
    const cut = new CompleteLinesStream({ held, complete: true });
    const output = await collect(streamOf([ascii("7\n8")]).pipeThrough(cut));
    expect(new TextDecoder().decode(Buffer.concat(output))).toBe("-07\n8");
    expect(cut.originalBytes).toBe(5 + 5);
    // "-" + 6 zeros + "7": the 7 is at column 8, offset 7 of the original line.
    expect(cut.originalPosition({ line: 1, column: 3, offset: 2 })).toEqual({ line: 1, column: 8, offset: 7 });
    expect(cut.originalPosition({ line: 2, column: 1, offset: 4 })).toEqual({ line: 2, column: 1, offset: 9 });
  });

  test("shortens a held run of leading zeros to one zero, keeping count", async () => {
    const cut = new CompleteLinesStream({ held: NO_HELD_LINE, complete: false });
    await collect(streamOf([ascii("1\n"), ascii("0".repeat(1000)), ascii("00012")]).pipeThrough(cut));
    expect(new TextDecoder().decode(cut.held.bytes)).toBe("012");
    expect(cut.held.skipped).toBe(1002);
  });

  test("refuses to give the held line before the input ended", () => {
    const cut = new CompleteLinesStream({ held: NO_HELD_LINE, complete: false });
    expect(() => cut.held).toThrow("Cannot take the held line");
  });

  test("cut anywhere, pieces parse to what the whole input parses to, errors at the same place", async () => {
    await fc.assert(
      fc.asyncProperty(
        lineText,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom(8, 64, 65536),
        async (text, pieceCuts, chunkCuts, compactAt) => {
          const bytes = ascii(text);
          expect(await parsePieces(bytes, pieceCuts, chunkCuts, compactAt)).toEqual(parseWhole(bytes));
        },
      ),
      { numRuns: 400 },
    );
  });
});
