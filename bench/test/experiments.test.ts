/**
 * Every experiment in `bench/experiments/` runs from an npm script (`npm run bench:…`), so none is left that only
 * the type check reads: a file is run by a script that names it, or is loaded by an experiment that is (the worker
 * `ingest-chunk-size.ts` bundles).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const DIRECTORY = "bench/experiments";

/** The experiments no npm script runs, directly or through an experiment that loads them. */
function unrun(files: readonly string[], scripts: readonly string[], sourceOf: (file: string) => string): string[] {
  const run = files.filter((file) => scripts.some((script) => script.includes(`${DIRECTORY}/${file}`)));
  const loaded = (file: string) => run.some((runner) => sourceOf(runner).includes(`"./${file}"`));
  return files.filter((file) => !run.includes(file) && !loaded(file));
}

test("the check finds an experiment that no script runs and none that a run experiment loads", () => {
  const sources: Record<string, string> = { "a.ts": 'new URL("./a-worker.ts", import.meta.url)', "b.ts": "" };
  const files = ["a.ts", "a-worker.ts", "b.ts"];
  expect(unrun(files, [`node ${DIRECTORY}/a.ts`], (file) => sources[file]!)).toEqual(["b.ts"]);
});

test("an npm script runs every experiment in bench/experiments/", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const files = readdirSync(join(ROOT, DIRECTORY)).filter((file) => file.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(0);
  const sourceOf = (file: string) => readFileSync(join(ROOT, DIRECTORY, file), "utf8");
  expect(unrun(files, Object.values(scripts), sourceOf)).toEqual([]);
});
