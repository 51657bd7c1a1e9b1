import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, test } from "vitest";
import { docFiles } from "../package/doc-blocks.ts";

// Every relative link of the README and docs/*.md leads to a file of the repository and, when it names an anchor, to
// a heading of that file, and every path they name in code exists: moving a section or a file cannot leave a
// reference behind.
const ROOT = resolve(import.meta.dirname, "../..");

/** The text of a Markdown file without its fenced code blocks, whose brackets are code, not links. */
function prose(text: string): string {
  return text.replace(/^```\w*\n[\s\S]*?^```$/gm, "");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of every heading of a Markdown file. */
function anchors(file: string): Set<string> {
  const headings = prose(readFileSync(file, "utf8")).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((heading) => anchor(heading.replace(/^#+ /, ""))));
}

/** Every relative link target of a Markdown file, with the line it is on. */
function links(file: string): { target: string; line: number }[] {
  const text = prose(readFileSync(join(ROOT, file), "utf8"));
  return [...text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .filter((match) => !/^[a-z]+:/.test(match[1]!))
    .map((match) => ({ target: match[1]!, line: text.slice(0, match.index).split("\n").length }));
}

test("the anchor of a heading is GitHub's", () => {
  expect(anchor("Local development server: `npm start`")).toBe("local-development-server-npm-start");
  expect(anchor("The iterable-streams bridges: `drainpipe-streams/iterable`")).toBe(
    "the-iterable-streams-bridges-drainpipe-streamsiterable",
  );
});

test("every relative link of the README and docs/*.md leads to a file and a heading that exist", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of docFiles(ROOT)) {
    for (const { target, line } of links(file)) {
      checked++;
      const [path, fragment] = target.split("#") as [string, string | undefined];
      const destination = path === "" ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
      if (!existsSync(destination)) broken.push(`${file}:${line}: ${target} (no ${relative(ROOT, destination)})`);
      else if (fragment !== undefined && destination.endsWith(".md") && !anchors(destination).has(fragment)) {
        broken.push(`${file}:${line}: ${target} (no such heading)`);
      }
    }
  }
  expect(checked).toBeGreaterThan(30);
  expect(broken).toEqual([]);
});

/** A path of the repository in a code span, such as `src/cli/main.ts` or `bench/results/`. */
const REPOSITORY_PATH = /`((?:src|test|bench|harness|scripts|tools|docs|bin)\/[^`\s]*)`/g;

test("every path of the repository that the README and docs/*.md name in code exists", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const file of docFiles(ROOT)) {
    for (const [, path] of prose(readFileSync(join(ROOT, file), "utf8")).matchAll(REPOSITORY_PATH)) {
      // Patterns (`<nn>-<id>.ts`, `*.test.ts`, `{json,md}`, `…`) stand for many paths; a segment starting with a dot
      // is a directory the tools write (`bench/.cache/`, `test/.artifacts/`), absent from a fresh clone.
      if (/[<>*{}…]/.test(path!) || /\/\./.test(path!)) continue;
      checked++;
      if (!existsSync(join(ROOT, path!))) missing.push(`${file}: ${path}`);
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(missing).toEqual([]);
});
