/**
 * The benchmarks' non-canonical input: the same numbers as a canonical file, written the ways the grammar accepts
 * but encoding does not give back, so that every line takes the upload path's exact parser and is encoded again.
 *
 * @module
 */

const LF = 0x0a;
const CR = 0x0d;
const ZERO = 0x30;

/** Every how many lines one gets a leading zero. */
const LEADING_ZERO_EVERY = 8;
/** Every how many lines a blank line follows. */
const BLANK_LINE_EVERY = 64;

/**
 * `canonical`'s lines (each ended by `\n`) with `\r\n` endings, a leading zero on every 8th line and a blank line
 * after every 64th. Storing it stores `canonical` again, byte for byte.
 *
 * @example
 * ```ts
 * const text = nonCanonicalText(new TextEncoder().encode("2\n3\n5\n7\n11\n13\n17\n19\n"));
 * new TextDecoder().decode(text).split("\r\n").slice(6); // ["17", "019", ""]
 * ```
 */
export function nonCanonicalText(canonical: Uint8Array): Uint8Array {
  let lines = 0;
  for (let i = 0; i < canonical.length; i++) if (canonical[i] === LF) lines++;
  const extra = lines + Math.floor(lines / LEADING_ZERO_EVERY) + 2 * Math.floor(lines / BLANK_LINE_EVERY);
  const out = new Uint8Array(canonical.length + extra);
  let o = 0;
  let line = 1;
  let lineStart = true;
  for (let i = 0; i < canonical.length; i++) {
    const byte = canonical[i]!;
    if (lineStart && line % LEADING_ZERO_EVERY === 0) out[o++] = ZERO;
    lineStart = false;
    if (byte !== LF) {
      out[o++] = byte;
      continue;
    }
    out[o++] = CR;
    out[o++] = LF;
    if (line % BLANK_LINE_EVERY === 0) {
      out[o++] = CR;
      out[o++] = LF;
    }
    line++;
    lineStart = true;
  }
  return out;
}
