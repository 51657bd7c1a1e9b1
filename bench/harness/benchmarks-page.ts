/**
 * The generated part of `docs/benchmarks.md` (from its "Running the benchmarks" heading to the end of the file),
 * made from the scenario registry (what each scenario measures and why) and a run's results: one summary table, a
 * row per table of the run, linking the full tables (`bench/results/<stem>.md`).
 *
 * @module
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { markdownTable } from "markdown-table";
import type { RegisteredScenario } from "../scenarios/index.ts";
import type { Machine } from "./machine.ts";
import { machineMarkdown } from "./markdown-report.ts";
import type { ScenarioResult } from "./scenario-result.ts";
import { wrapParagraph } from "./wrap-paragraph.ts";

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
  /**
   * The day each scenario (by number) last ran, when not all on `date`: a run of some scenarios
   * (`--only`) keeps the others' tables from the run before it.
   */
  scenarioDates?: Record<string, string>;
}

const HEADING = "\n## Running the benchmarks\n";

/** The docs' line limit (`test/lint/line-length.test.ts`), which every generated line outside a table keeps. */
const WIDTH = 120;

/** The section's fixed opening: how to run the benchmarks and what every run does. */
const INTRO = [
  "`npm run bench` runs every scenario (about 12 minutes; keep the machine otherwise idle) and writes",
  "`bench/results/<date>-<runtime>.{json,md,svg}` and this page; `npm run bench:quick` runs them all with tiny",
  "sizes (under a minute, results under `bench/.cache/quick/`), and `bench/test/quick.test.ts`, part of `npm test`,",
  "runs every scenario's output checks with tiny sizes. Benchmarks assert nothing about time; every variant's output",
  "is checked in every run. `node bench/run.ts --only 4,7` runs those scenarios and keeps the others' tables from",
  "the latest results file (the page says which ran when); `node bench/run.ts --docs` rewrites this page",
  "from the latest results file.",
  "",
  "The code: `bench/run.ts` (the run), `bench/harness/` (scenarios, run-alone options, statistics, reports and",
  "this page), `bench/workers/` (the bench-only workers run in workerd, how they are started and how one request",
  "is measured), `bench/workloads/` (inputs, the pipelines and the baselines compared), `bench/implementations/`",
  "(the streams implementations compared) and `bench/test/` (the tests of that code, part of `npm test`); a helper",
  "only one scenario uses sits beside it as `bench/scenarios/<nn>-<id>.<helper>.ts`. What the benchmarks share with",
  "the tests is in `harness/` at the top (local workers, a process's memory and CPU time, the discarding store, the",
  "browsers and the server of their pages): neither `test/` nor `bench/` imports the other. `bench/experiments/`",
  "holds measurements outside the scenarios, each run by an npm script: `npm run bench:ab` (the shape matrix before",
  "and after a change), `bench:floors` (in Node), `bench:browser-floors` (the same loops in Chromium and Firefox),",
  "`bench:request-cost` and `bench:read-size`.",
  "",
  "Each scenario is one file, `bench/scenarios/<nn>-<id>.ts`, exporting a `scenario` object (id, title, what it",
  "measures and why, quick options, run function); `bench/scenarios/index.ts` registers every such file, so a new",
  "scenario is one new file. A scenario file also runs alone: `npx node bench/scenarios/<nn>-<id>.ts --help`. The",
  "stream implementations compared are the table in `bench/implementations/registry.ts`. The scenarios measured",
  "with `vitest bench` load drainpipe from an esbuild bundle of `src/streams` (`tools/bundled-drainpipe.ts`),",
  "as wrangler bundles the worker: through vitest's module transform, every call between its modules would cost a",
  "property load. `bench/performance.md` says where the time goes, goal by goal, with the profiles",
  "(`npx node bench/profile.ts --shape <shape> [--worker]`, in Node or inside workerd) and the floors.",
];

/** `value` as a ratio for the summary: three significant digits and a ×. */
function ratio(value: number): string {
  return `${Number(value.toPrecision(3))}×`;
}

/**
 * One line of the summary about a table's speedups over its baseline: the range, and the fastest variant.
 *
 * @example
 * ```ts
 * speedupRange([{ label: "a", value: 0.327 }, { label: "b", value: 4.25 }]); // "0.327× … 4.25× (fastest: b)"
 * ```
 */
export function speedupRange(speedups: ScenarioResult["speedups"]): string {
  if (speedups.length === 0) return "no ratios (see its table)";
  const sorted = [...speedups].sort((a, b) => a.value - b.value);
  const slowest = sorted[0]!;
  const fastest = sorted.at(-1)!;
  return sorted.length === 1
    ? `${ratio(fastest.value)} (${fastest.label})`
    : `${ratio(slowest.value)} … ${ratio(fastest.value)} (fastest: ${fastest.label})`;
}

/**
 * The summary of a run: a row per table (its title, runtime, speedups over the scenario's baseline and output
 * checks), in run order.
 *
 * @example
 * ```ts
 * summaryTable(record.results); // "| table | runtime | speedups over the baseline | output checks |\n…"
 * ```
 */
export function summaryTable(results: readonly ScenarioResult[]): string {
  const cell = (text: string): string => text.replace(/\|/g, "\\|");
  const rows = results.map((result) => {
    const failed = result.checks.filter((check) => !check.ok).length;
    const checks = failed === 0 ? `all ${result.checks.length} passed` : `${failed} of ${result.checks.length} FAILED`;
    return [result.title, result.runtime, speedupRange(result.speedups), checks].map(cell);
  });
  return markdownTable([["table", "runtime", "speedups over the baseline", "output checks"], ...rows], {
    alignDelimiters: false,
  });
}

/**
 * The generated part of the page, from its heading on: the introduction, every registered scenario, then the
 * summary of `run` (saved as `bench/results/<stem>.*`, whose `.md` holds the full tables). Links are relative to
 * `docs/`; every line outside the summary table is at most {@link WIDTH} characters.
 *
 * @example
 * ```ts
 * benchmarksSection(await loadScenarios(), record, "2026-11-22-node24"); // "\n## Running the benchmarks\n\n…"
 * ```
 */
export function benchmarksSection(scenarios: readonly RegisteredScenario[], run: RunRecord, stem: string): string {
  const chart = `bench/results/${stem}.svg`;
  const tables = `bench/results/${stem}.md`;
  return [
    HEADING,
    ...INTRO,
    "",
    "## Scenarios",
    "",
    ...scenarios.flatMap(({ number, file, scenario }) =>
      wrapParagraph(
        `**${scenario.title}** (\`${file}\`): measures ${scenario.measures} Why: ${scenario.why}`,
        WIDTH,
        `${number}. `,
        " ".repeat(`${number}. `.length),
      ),
    ),
    "",
    "## The latest run",
    "",
    ...wrapParagraph(
      `Run ${stem}: ${machineMarkdown(run.machine)}.${olderScenarios(run, scenarios)} ` +
        `Every table with its notes: [${tables}](../${tables}); chart: [${chart}](../${chart}).`,
      WIDTH,
    ),
    "",
    "A row per table of the run. Speedups are the chart's bars: the scenario's baseline time over a variant's (each",
    "table's notes name its baseline), so above 1× is faster than the baseline.",
    "",
    summaryTable(run.results),
    "",
  ].join("\n");
}

/**
 * Which scenarios of `run` come from an earlier day, and which have never run, as a sentence (empty when every
 * registered scenario ran on its date).
 */
function olderScenarios(run: RunRecord, scenarios: readonly RegisteredScenario[]): string {
  if (run.scenarioDates === undefined) return "";
  const dates = run.scenarioDates;
  const older = Object.entries(dates).filter(([, date]) => date !== run.date);
  const never = scenarios.filter(({ number }) => dates[number] === undefined).map(({ number }) => number);
  if (older.length === 0 && never.length === 0) return "";
  const byDate = new Map<string, string[]>();
  for (const [number, date] of older) byDate.set(date, [...(byDate.get(date) ?? []), number]);
  const named = (numbers: readonly (string | number)[], verb: [string, string]) =>
    numbers.length === 1 ? `scenario ${numbers[0]} ${verb[0]}` : `scenarios ${numbers.join(", ")} ${verb[1]}`;
  const parts = [...byDate].map(([date, numbers]) => `${named(numbers, ["is", "are"])} from the run of ${date}`);
  if (never.length > 0) parts.push(`${named(never, ["has", "have"])} not run yet`);
  return ` This run was of some scenarios only; ${parts.join("; ")}.`;
}

/**
 * Replaces the generated part of the page at `path` (from its "Running the benchmarks" heading to the end of the
 * file) with `section`, or appends it when there is none.
 */
export async function replaceBenchmarksSection(path: string, section: string): Promise<void> {
  const page = await readFile(path, "utf8");
  const start = page.indexOf(HEADING);
  await writeFile(path, `${start >= 0 ? page.slice(0, start) : `${page.trimEnd()}\n`}${section}`);
}

/**
 * The newest results file in `directory` (`bench/results/`): its stem (`<date>-node<major>`) and its record.
 *
 * @example
 * ```ts
 * const { stem, record } = await latestResults("bench/results"); // stem: "2026-11-29-node24"
 * ```
 */
export async function latestResults(directory: string): Promise<{ stem: string; record: RunRecord }> {
  const stems = (await readdir(directory)).filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -5));
  const stem = stems.sort().at(-1);
  if (stem === undefined) throw new Error(`Cannot find the latest benchmark results: ${directory} holds none`);
  return { stem, record: JSON.parse(await readFile(join(directory, `${stem}.json`), "utf8")) as RunRecord };
}
