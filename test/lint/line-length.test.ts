import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { docFiles } from "../package/doc-blocks.ts";

const ROOT = join(import.meta.dirname, "../..");
/** The formatter's line width (biome.json); it cannot wrap strings and comments, so this test holds them to it. */
const MAX_LINE = 120;
/** A line that holds a URL may be longer, so that links stay whole (the habit of ESLint's `ignoreUrls`). */
const URL = /\bhttps?:\/\/\S+/;
/** A row of a Markdown table, which cannot be cut across lines. */
const TABLE_ROW = /^\s*\|/;

/** `file:line (length)` for every line of `file` longer than {@link MAX_LINE} that `allowed` does not excuse. */
function longLines(file: string, allowed: (line: string) => boolean): string[] {
  return readFileSync(join(ROOT, file), "utf8")
    .split("\n")
    .flatMap((line, index) =>
      [...line].length > MAX_LINE && !allowed(line) ? [`${file}:${index + 1} (${[...line].length})`] : [],
    );
}

test(`no line of TypeScript is longer than ${MAX_LINE} characters, except to keep a URL whole`, () => {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "");
  expect(files.length).toBeGreaterThan(100);
  expect(files.flatMap((file) => longLines(file, (line) => URL.test(line)))).toEqual([]);
});

test(`no line of the README or docs/*.md is longer than ${MAX_LINE} characters outside tables`, () => {
  const files = docFiles(ROOT);
  expect(files).toContain("docs/cli.md");
  expect(files.flatMap((file) => longLines(file, (line) => TABLE_ROW.test(line)))).toEqual([]);
});
