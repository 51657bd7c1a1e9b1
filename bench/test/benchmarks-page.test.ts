import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { benchmarksSection, latestResults, speedupRange, summaryTable } from "../harness/benchmarks-page.ts";
import type { ScenarioResult } from "../harness/scenario-result.ts";
import { loadScenarios } from "../scenarios/index.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** A result with only what the summary reads set. */
function result(title: string, speedups: ScenarioResult["speedups"], ok: boolean[]): ScenarioResult {
  const checks = ok.map((passed, index) => ({ variant: `v${index}`, ok: passed, detail: "d" }));
  return { id: "x", title, runtime: "node 24", columns: [], rows: [], notes: [], speedups, checks };
}

describe("the benchmarks page's summary", () => {
  test("gives each table's range of speedups and its fastest variant", () => {
    const speedups = [
      { label: "polyfill", value: 0.3271 },
      { label: "drainpipe", value: 4.254 },
      { label: "fast", value: 2 },
    ];
    expect(speedupRange(speedups)).toBe("0.327× … 4.25× (fastest: drainpipe)");
    expect(speedupRange([{ label: "only", value: 1.5 }])).toBe("1.5× (only)");
    expect(speedupRange([])).toBe("no ratios (see its table)");
  });

  test("has a row per table, in run order, with its output checks, and escapes pipes", () => {
    const table = summaryTable([
      result("Scenario 1: a | b", [{ label: "x", value: 2 }], [true, true]),
      result("Scenario 2", [], [true, false, false]),
    ]);
    expect(table.split("\n")).toEqual([
      "| table | runtime | speedups over the baseline | output checks |",
      "| - | - | - | - |",
      "| Scenario 1: a \\| b | node 24 | 2× (x) | all 2 passed |",
      "| Scenario 2 | node 24 | no ratios (see its table) | 2 of 3 FAILED |",
    ]);
  });
});

// When it fails, `node bench/run.ts --docs` writes the page again.
test("docs/benchmarks.md holds every registered scenario and the latest results", async () => {
  const { stem, record } = await latestResults(resolve(ROOT, "bench/results"));
  const page = await readFile(resolve(ROOT, "docs/benchmarks.md"), "utf8");
  expect(page.endsWith(benchmarksSection(await loadScenarios(), record, stem))).toBe(true);
});
