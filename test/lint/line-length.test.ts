import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
/** The formatter's line width (biome.json); it cannot wrap strings and comments, so this test holds them to it. */
const MAX_LINE = 120;
/** A line that holds a URL may be longer, so that links stay whole (the habit of ESLint's `ignoreUrls`). */
const URL = /\bhttps?:\/\/\S+/;

test(`no line of TypeScript is longer than ${MAX_LINE} characters, except to keep a URL whole`, () => {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "");
  expect(files.length).toBeGreaterThan(100);
  const long = files.flatMap((file) =>
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, index) =>
        [...line].length > MAX_LINE && !URL.test(line) ? [`${file}:${index + 1} (${[...line].length})`] : [],
      ),
  );
  expect(long).toEqual([]);
});
