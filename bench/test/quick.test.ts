/**
 * The benchmarks' quick mode, run with the tests: every scenario of the registry (`bench/scenarios/`) with tiny
 * sizes, checking only that it runs and that every variant's output is right (never anything about time). A
 * scenario runs with its quick options, or, when it has one, through its in-process `check` (the scenarios whose
 * run starts `vitest bench` itself). Scenarios 4 and 5 start local workerd.
 */
import { describe, expect, test } from "vitest";
import { runScenario } from "../harness/scenario.ts";
import { loadScenarios } from "../scenarios/index.ts";

const scenarios = await loadScenarios();

describe("bench quick mode", () => {
  test("the registry holds the scenarios, numbered in order", () => {
    expect(scenarios.length).toBeGreaterThan(0);
    expect(new Set(scenarios.map(({ scenario }) => scenario.id)).size).toBe(scenarios.length);
  });

  for (const { number, file, scenario } of scenarios) {
    test(`scenario ${number} (${file}): every variant's output is right`, { timeout: 180_000 }, async () => {
      const checks = scenario.check
        ? await scenario.check()
        : (await runScenario(number, scenario, scenario.quick, { quick: true })).flatMap((result) => {
            expect(result.rows.length, result.title).toBeGreaterThan(0);
            return result.checks;
          });
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((check) => !check.ok)).toEqual([]);
    });
  }
});
