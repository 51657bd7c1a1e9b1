/**
 * What a benchmark scenario is: one file `bench/scenarios/<nn>-<id>.ts` exporting a {@linkcode Scenario} as
 * `scenario`. `bench/scenarios/index.ts` registers every such file; `bench/run.ts`, `docs/benchmarks.md`
 * and `bench/test/quick.test.ts` loop over that registry.
 *
 * @module
 */
import type { OutputCheck, ScenarioResult } from "./scenario-result.ts";

/** What every run of a scenario is told besides its options. */
export interface RunContext {
  /** Whether this is a quick run (`npm run bench:quick`, the quick test, `--quick`): tiny sizes, seconds. */
  quick: boolean;
}

/**
 * One benchmark scenario. Its options are named numbers (sizes, run counts) that all have defaults: a full run
 * passes none, a quick run passes {@linkcode Scenario.quick}, a run alone the ones given on the command line.
 *
 * @example
 * ```ts
 * // bench/scenarios/06-example.ts
 * export const scenario = defineScenario<{ count?: number }>({
 *   id: "example",
 *   title: "Example",
 *   measures: "how long summing `count` numbers takes",
 *   why: "to show how a scenario is written",
 *   options: { count: "how many numbers (default 1,000,000)" },
 *   quick: { count: 1000 },
 *   async run(options) {
 *     return [await measureSum(options.count ?? 1_000_000)];
 *   },
 * });
 * if (import.meta.main) await runAlone(import.meta.filename, scenario);
 * ```
 */
export interface Scenario<Options extends object = object> {
  /** Short id, the file name after the number: `number-pipeline` for `03-number-pipeline.ts`. */
  id: string;
  /** A short name for lists (the result tables carry their own, longer titles). */
  title: string;
  /** What it measures: the variants and the quantities, one or two sentences. */
  measures: string;
  /** Why it is measured: the question the numbers answer. */
  why: string;
  /** Every option, by name, with a description for `--help` when the file runs alone. */
  options: { readonly [Name in keyof Options]-?: string };
  /** The options of a quick run: every variant, tiny sizes, every output still checked. */
  quick: Options;
  /**
   * Runs the scenario and returns its tables (one per runtime where it runs in several), every variant's output
   * checked. Titles leave out the "Scenario <n>: " the registry puts in front of them.
   */
  run(options: Options, context: RunContext): Promise<ScenarioResult[]>;
  /**
   * For a scenario whose {@linkcode run} cannot happen inside the test runner (it starts `vitest bench` itself):
   * checks every variant's output with tiny sizes, without vitest (in this process, or in the runtimes it starts).
   * The quick test calls this instead of `run` when it is there.
   */
  check?(): Promise<OutputCheck[]>;
}

/** Types a scenario object (an identity function: it only helps the compiler check its options). */
export function defineScenario<Options extends object>(scenario: Scenario<Options>): Scenario<Options> {
  return scenario;
}

/** A scenario file's name: two digits, a dash, the scenario's id, `.ts`. */
export const SCENARIO_FILE = /^(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.ts$/;

/**
 * The number of the scenario in file `path` (from its two-digit prefix).
 *
 * @throws {Error} when the file name is not `<nn>-<id>.ts`.
 *
 * @example
 * ```ts
 * scenarioNumber("/repo/bench/scenarios/03-number-pipeline.ts"); // 3
 * ```
 */
export function scenarioNumber(path: string): number {
  const match = SCENARIO_FILE.exec(path.slice(path.lastIndexOf("/") + 1));
  if (!match) throw new Error(`Cannot number the scenario in ${path}: its name is not <nn>-<id>.ts`);
  return Number(match[1]);
}

/**
 * Runs `scenario` as scenario `number`: its tables, titled "Scenario <number>: …".
 *
 * @example
 * ```ts
 * const results = await runScenario(3, scenario, scenario.quick, { quick: true });
 * ```
 */
export async function runScenario<Options extends object>(
  number: number,
  scenario: Scenario<Options>,
  options: Options,
  context: RunContext,
): Promise<ScenarioResult[]> {
  const results = await scenario.run(options, context);
  return results.map((result) => ({ ...result, title: `Scenario ${number}: ${result.title}` }));
}
