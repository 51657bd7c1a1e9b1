/**
 * `npm run bench` (and `npm run bench:quick`, with `--quick`): runs every scenario of the registry
 * (`bench/scenarios/index.ts`), in the order of their numbers, and writes the results.
 *
 * A full run writes `bench/results/<date>-node<major>.json`, `.md` and `.svg` and replaces the generated part of
 * `docs/benchmarks.md`; a quick run (every scenario's quick options, seconds) writes the same files under
 * `bench/.cache/quick/` and leaves the page alone. Exits with 1 when any output check failed.
 *
 * `node bench/run.ts --only 4,7` runs the scenarios of those numbers only, and keeps every other scenario's
 * tables from the latest results file (the record says which day each scenario ran).
 *
 * `node bench/run.ts --docs` runs nothing: it rewrites the generated part of `docs/benchmarks.md` from the
 * registry and the latest results file in `bench/results/`.
 *
 * @module
 */
import { mkdir, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  benchmarksSection,
  latestResults,
  type RunRecord,
  replaceBenchmarksSection,
} from "./harness/benchmarks-page.ts";
import { describeMachine } from "./harness/machine.ts";
import { runMarkdown } from "./harness/markdown-report.ts";
import { runScenario } from "./harness/scenario.ts";
import type { ScenarioResult } from "./harness/scenario-result.ts";
import { speedupChart } from "./harness/speedup-chart.ts";
import { loadScenarios } from "./scenarios/index.ts";

const PROJECT_ROOT = resolve(import.meta.dirname, "..");
const PAGE = resolve(PROJECT_ROOT, "docs/benchmarks.md");
const RESULTS_DIR = resolve(PROJECT_ROOT, "bench/results");

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    docs: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const scenarios = await loadScenarios();
const only = args.only?.split(",").map((number) => Number(number.trim()));
const unknown = only?.filter((number) => !scenarios.some((registered) => registered.number === number));
if (unknown !== undefined && unknown.length > 0) {
  throw new Error(`Cannot run --only ${args.only}: no scenario numbered ${unknown.join(", ")}`);
}

if (args.docs) {
  const { stem, record } = await latestResults(RESULTS_DIR);
  await replaceBenchmarksSection(PAGE, benchmarksSection(scenarios, record, stem));
  console.log(`wrote docs/benchmarks.md from bench/results/${stem}.json`);
} else {
  const quick = args.quick;
  const machine = describeMachine();
  const ran = new Map<number, ScenarioResult[]>();
  for (const { number, scenario } of scenarios) {
    if (only !== undefined && !only.includes(number)) continue;
    console.log(`scenario ${number}: ${scenario.title}`);
    ran.set(number, await runScenario(number, scenario, quick ? scenario.quick : {}, { quick }));
  }

  const date = new Date().toISOString().slice(0, 10);
  const stem = `${date}-node${machine.node.split(".")[0]}`;
  const directory = quick ? resolve(PROJECT_ROOT, "bench/.cache/quick") : RESULTS_DIR;
  const earlier = only === undefined || quick ? undefined : (await latestResults(RESULTS_DIR)).record;
  const results: ScenarioResult[] = [];
  const scenarioDates: Record<string, string> = {};
  for (const { number } of scenarios) {
    const fresh = ran.get(number);
    const kept = earlier?.results.filter((result) => result.title.startsWith(`Scenario ${number}:`)) ?? [];
    results.push(...(fresh ?? kept));
    if (fresh !== undefined) scenarioDates[number] = date;
    else if (kept.length > 0) scenarioDates[number] = earlier?.scenarioDates?.[number] ?? earlier?.date ?? date;
  }
  const record: RunRecord = { date, quick, machine, results, scenarioDates };
  await mkdir(directory, { recursive: true });
  await writeFile(resolve(directory, `${stem}.json`), `${JSON.stringify(record, null, 2)}\n`);
  await writeFile(resolve(directory, `${stem}.md`), `${runMarkdown(results, machine, date, `${stem}.svg`)}\n`);
  await writeFile(resolve(directory, `${stem}.svg`), speedupChart(results));
  if (!quick) await replaceBenchmarksSection(PAGE, benchmarksSection(scenarios, record, stem));

  const failed = results.flatMap((result) =>
    result.checks.filter((check) => !check.ok).map((check) => `${result.id}: ${check.variant}: ${check.detail}`),
  );
  for (const failure of failed) console.error(`FAILED CHECK ${failure}`);
  console.log(`wrote ${resolve(directory, stem)}.{json,md,svg}${quick ? "" : " and docs/benchmarks.md"}`);
  if (failed.length > 0) process.exitCode = 1;
}
