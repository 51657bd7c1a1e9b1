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
