/**
 * Reads the TAP output of `deno test --reporter=tap` (TAP version 14): one result per top-level test, with the test
 * file it came from (the `# ./path` comment before it) and, for a failure, the message of its YAML block.
 * @module
 */

/** One top-level test of a `deno test` run. */
export interface TapResult {
  /** The test file, relative to the directory `deno test` ran in (`./streams/to_bytes_test.ts`). */
  readonly file: string;
  readonly name: string;
  readonly passed: boolean;
  /** The failure's message (the first line of it), or `""`. */
  readonly message: string;
}

const RESULT = /^(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/;
const FILE = /^# (\.\/\S+)$/;

function firstLine(block: string): string {
  try {
    const parsed = JSON.parse(block) as { message?: unknown };
    if (typeof parsed.message === "string") return parsed.message.split("\n")[0] ?? "";
  } catch {
    // Not the JSON block deno writes: keep the raw text.
  }
  return block.trim().split("\n")[0] ?? "";
}

/**
 * The top-level results in `output`: steps, which deno indents, are part of their test, and ignored tests (`# SKIP`)
 * are left out.
 *
 * @example
 * ```ts
 * parseTap("TAP version 14\n# ./streams/a_test.ts\nok 1 - adds\n1..1\n");
 * // [{ file: "./streams/a_test.ts", name: "adds", passed: true, message: "" }]
 * ```
 */
export function parseTap(output: string): TapResult[] {
  const results: TapResult[] = [];
  const lines = output.split("\n");
  let file = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const fileMatch = FILE.exec(line);
    if (fileMatch !== null) {
      file = fileMatch[1] ?? "";
      continue;
    }
    const match = RESULT.exec(line);
    if (match === null || match[3] === "SKIP") continue;
    const passed = match[1] === "ok";
    let message = "";
    if (!passed && lines[index + 1] === "  ---") {
      const end = lines.indexOf("  ...", index + 2);
      message = firstLine(lines.slice(index + 2, end === -1 ? undefined : end).join("\n"));
    }
    results.push({ file, name: match[2] ?? "", passed, message });
  }
  return results;
}
