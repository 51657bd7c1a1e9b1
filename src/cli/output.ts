/**
 * Writing results: JSON documents for `--json`, lines of text otherwise. Data goes to stdout; when stdout
 * carries file content (`get` and `primes` without `-o`), summaries go to stderr.
 *
 * @module
 */

/**
 * Writes `value` as indented JSON and a newline.
 *
 * @example
 * ```ts
 * printJson({ name: "primes", removed: true });
 * ```
 */
export function printJson(value: unknown, stream: NodeJS.WritableStream = process.stdout): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes `value` as JSON on one line, spaced as it reads in prose (`{ "index": 3, "found": true }`), and a newline:
 * for a small answer a person reads and a script parses.
 *
 * @example
 * ```ts
 * printJsonLine({ index: 78498, value: 1000003, found: false });
 * // { "index": 78498, "value": 1000003, "found": false }
 * ```
 */
export function printJsonLine(value: unknown, stream: NodeJS.WritableStream = process.stdout): void {
  // Indented JSON has line breaks only between its tokens (those in strings are escaped): each one, and the
  // indentation after it, becomes a space.
  stream.write(`${JSON.stringify(value, null, 1).replace(/\n\s*/g, " ")}\n`);
}

/**
 * Writes each line followed by a newline.
 *
 * @example
 * ```ts
 * printLines([`removed "primes"`], process.stderr);
 * ```
 */
export function printLines(lines: readonly string[], stream: NodeJS.WritableStream = process.stdout): void {
  if (lines.length > 0) stream.write(`${lines.join("\n")}\n`);
}
