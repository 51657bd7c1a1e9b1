/**
 * Running one scenario file on its own, with named options: `npx node bench/scenarios/<nn>-<id>.ts [--quick]
 * [--<option> <number>]…` (`--help` lists the options). Prints every table and every output check; exits with 1
 * when a check failed.
 *
 * @module
 */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { runScenario, type Scenario, scenarioNumber } from "./scenario.ts";

/**
 * Reads the scenario's options from `args`: numbers (`1e8` works) that override the defaults, or the quick
 * options under them with `--quick`.
 *
 * @throws {Error} on an unknown option or a value that is not a positive number.
 *
 * @example
 * ```ts
 * parseScenarioArgs(scenario, ["--count", "1e6", "--runs", "3"]); // { options: { count: 1000000, runs: 3 }, … }
 * ```
 */
export function parseScenarioArgs<Options extends object>(
  scenario: Scenario<Options>,
  args: readonly string[],
): { options: Options; quick: boolean; help: boolean } {
  const names = Object.keys(scenario.options);
  const { values } = parseArgs({
    args: [...args],
    options: {
      quick: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
      ...Object.fromEntries(names.map((name) => [name, { type: "string" as const }])),
    },
  });
  const given: Record<string, number> = {};
  for (const name of names) {
    const text = (values as Record<string, string | boolean | undefined>)[name];
    if (typeof text !== "string") continue;
    const value = Number(text);
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new Error(`Cannot run ${scenario.id}: --${name} must be a positive number, got "${text}"`);
    }
    given[name] = value;
  }
  const quick = values.quick === true;
  return { options: { ...(quick ? scenario.quick : {}), ...given } as Options, quick, help: values.help === true };
}

/** The `--help` text of the scenario in `file`. */
function usage(file: string, scenario: Scenario<object>): string {
  const described = scenario.options as Record<string, string>;
  const options = Object.entries(described).map(([name, text]) => `  --${name} <number>  ${text}`);
  return [
    `${scenario.title}: ${scenario.measures}`,
    "",
    `Usage: npx node ${relative(process.cwd(), file)} [--quick] ${options.length > 0 ? "[options]" : ""}`,
    "  --quick  the quick run's sizes (seconds)",
    ...options,
  ].join("\n");
}

/**
 * Runs the scenario of `file` (its `import.meta.filename`) with the options of the command line, when that file
 * is the program: `if (import.meta.main) await runAlone(import.meta.filename, scenario);`.
 */
export async function runAlone<Options extends object>(file: string, scenario: Scenario<Options>): Promise<void> {
  const { options, quick, help } = parseScenarioArgs(scenario, process.argv.slice(2));
  if (help) {
    console.log(usage(file, scenario));
    return;
  }
  const results = await runScenario(scenarioNumber(file), scenario, options, { quick });
  let failed = false;
  for (const result of results) {
    console.log(`\n${result.title} (${result.runtime})`);
    console.table(result.rows);
    for (const check of result.checks) console.log(check.ok ? "ok  " : "FAIL", check.variant, check.detail);
    failed ||= result.checks.some((check) => !check.ok);
  }
  process.exitCode = failed ? 1 : 0;
}
