import { describe, expect, test } from "vitest";
import { parseScenarioArgs } from "../harness/run-alone.ts";
import { defineScenario, scenarioNumber } from "../harness/scenario.ts";

const scenario = defineScenario<{ count?: number; runs?: number }>({
  id: "example",
  title: "Example",
  measures: "nothing.",
  why: "to test the command line.",
  options: { count: "how many", runs: "how often" },
  quick: { count: 10, runs: 1 },
  run: async () => [],
});

describe("parseScenarioArgs", () => {
  test("reads named numbers, and nothing when none is given", () => {
    expect(parseScenarioArgs(scenario, ["--count", "1e6", "--runs=3"]).options).toEqual({ count: 1e6, runs: 3 });
    expect(parseScenarioArgs(scenario, [])).toEqual({ options: {}, quick: false, help: false });
  });

  test("starts from the quick options with --quick; named options override them", () => {
    expect(parseScenarioArgs(scenario, ["--quick", "--runs", "2"])).toEqual({
      options: { count: 10, runs: 2 },
      quick: true,
      help: false,
    });
  });

  test("refuses unknown options, positional arguments and values that are not positive numbers", () => {
    expect(() => parseScenarioArgs(scenario, ["--size", "3"])).toThrow();
    expect(() => parseScenarioArgs(scenario, ["1000"])).toThrow();
    expect(() => parseScenarioArgs(scenario, ["--count", "many"])).toThrow(
      'Cannot run example: --count must be a positive number, got "many"',
    );
  });
});

describe("scenarioNumber", () => {
  test("reads the two digits of a scenario file's name", () => {
    expect(scenarioNumber("/repo/bench/scenarios/03-number-pipeline.ts")).toBe(3);
    expect(() => scenarioNumber("/repo/bench/scenarios/01-chunk-pipes.bench.ts")).toThrow();
  });
});
