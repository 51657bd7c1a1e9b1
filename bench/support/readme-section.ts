/**
 * The "Benchmarks" section at the end of README.md, made from the scenario registry (what each scenario measures
 * and why) and a run's results (the tables).
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import type { RegisteredScenario } from "../scenarios/index.ts";
import type { Machine } from "./machine.ts";
import { machineMarkdown, scenarioMarkdown } from "./markdown-report.ts";
import type { ScenarioResult } from "./scenario-result.ts";

/** What a results file (`bench/results/<stem>.json`) holds. */
export interface RunRecord {
  /** The day of the run, `YYYY-MM-DD`. */
  date: string;
  /** Whether it was a quick run. */
  quick: boolean;
  /** Where it ran. */
  machine: Machine;
  /** Every scenario's tables, in order. */
  results: ScenarioResult[];
}

const HEADING = "\n## Benchmarks\n";

/** The section's fixed opening: how to run the benchmarks and what every run does. */
const INTRO = [
  "`npm run bench` runs every scenario (about 12 minutes; keep the machine otherwise idle) and writes",
  "`bench/results/<date>-<runtime>.{json,md,svg}` and this section; `npm run bench:quick` runs them all with tiny",
  "sizes (under a minute, results under `bench/.cache/quick/`), and `test/bench/quick.test.ts`, part of `npm test`,",
  "runs every scenario's output checks with tiny sizes. Benchmarks assert nothing about time; every variant's output",
  "is checked in every run. `node bench/run.ts --readme` rewrites this section from the latest results file.",
  "",
  "Each scenario is one file, `bench/scenarios/<nn>-<id>.ts`, exporting a `scenario` object (id, title, what it",
  "measures and why, quick options, run function); `bench/scenarios/index.ts` registers every such file, so a new",
  "scenario is one new file. A scenario file also runs alone: `npx node bench/scenarios/<nn>-<id>.ts --help`. The",
  "stream implementations compared are the table in `bench/support/implementations.ts`. The scenarios measured",
  "with `vitest bench` load drainpipe from an esbuild bundle of `src/streams` (`bench/support/bundled-drainpipe.ts`),",
  "as wrangler bundles the worker: through vitest's module transform, every call between its modules would cost a",
  "property load. `bench/performance.md` says where the time goes, goal by goal, with the profiles",
  "(`npx node bench/profile.ts --shape <shape> [--worker]`, in Node or inside workerd) and the floors.",
];

/**
 * The section, from its heading on: the introduction, every registered scenario, then the tables of `run`
 * (saved as `bench/results/<stem>.*`).
 *
 * @example
 * ```ts
 * benchmarksSection(await loadScenarios(), record, "2026-11-22-node24"); // "\n## Benchmarks\n\n`npm run bench` …"
 * ```
 */
export function benchmarksSection(scenarios: readonly RegisteredScenario[], run: RunRecord, stem: string): string {
  const chart = `bench/results/${stem}.svg`;
  return [
    HEADING,
    ...INTRO,
    "",
    "Scenarios:",
    "",
    ...scenarios.map(
      ({ number, file, scenario }) =>
        `${number}. **${scenario.title}** (\`${file}\`): measures ${scenario.measures} Why: ${scenario.why}`,
    ),
    "",
    `Latest run (${stem}): ${machineMarkdown(run.machine)}. Chart: [${chart}](${chart}).`,
    "",
    ...run.results.flatMap((result) => [scenarioMarkdown(result, 3), ""]),
  ].join("\n");
}

/**
 * Replaces the Benchmarks section of the README at `path` (from its heading to the end of the file) with
 * `section`, or appends it when there is none.
 */
export async function replaceReadmeSection(path: string, section: string): Promise<void> {
  const readme = await readFile(path, "utf8");
  const start = readme.indexOf(HEADING);
  await writeFile(path, `${start >= 0 ? readme.slice(0, start) : `${readme.trimEnd()}\n`}${section}`);
}
