/**
 * Runs scenarios 12 (the browsers) and 13 (bundle sizes) and writes their results apart from `npm run bench`'s:
 * `bench/results/browsers/<date>.json`, `.md` and `.svg`, the same record, tables and chart as the other
 * scenarios' results, leaving the README and the Node results alone. Exits with 1 when an output check failed.
 *
 * `npx node bench/scenarios/12-browsers.record.ts [--matrixCount N] [--pipeCount N] [--rounds N] [--runs N]`
 * (scenario 12's options).
 *
 * @module
 */
import { mkdir, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { RunRecord } from "../harness/benchmarks-page.ts";
import { describeMachine } from "../harness/machine.ts";
import { runMarkdown } from "../harness/markdown-report.ts";
import { parseScenarioArgs } from "../harness/run-alone.ts";
import { runScenario } from "../harness/scenario.ts";
import { speedupChart } from "../harness/speedup-chart.ts";
import { scenario as browsers } from "./12-browsers.ts";
import { scenario as sizes } from "./13-bundle-sizes.ts";

const DIRECTORY = resolve(import.meta.dirname, "../results/browsers");

const { options } = parseScenarioArgs(browsers, process.argv.slice(2));
const machine = describeMachine();
const results = [
  ...(await runScenario(12, browsers, options, { quick: false })),
  ...(await runScenario(13, sizes, {}, { quick: false })),
];
const date = new Date().toISOString().slice(0, 10);
const record: RunRecord = { date, quick: false, machine, results, scenarioDates: { 12: date, 13: date } };
await mkdir(DIRECTORY, { recursive: true });
await writeFile(resolve(DIRECTORY, `${date}.json`), `${JSON.stringify(record, null, 2)}\n`);
await writeFile(resolve(DIRECTORY, `${date}.md`), `${runMarkdown(results, machine, date, `${date}.svg`)}\n`);
await writeFile(resolve(DIRECTORY, `${date}.svg`), speedupChart(results));
const failed = results.flatMap((result) => result.checks.filter((check) => !check.ok).map((check) => check.variant));
for (const variant of failed) console.error(`FAILED CHECK ${variant}`);
console.log(`wrote ${resolve(DIRECTORY, date)}.{json,md,svg}`);
process.exitCode = failed.length > 0 ? 1 : 0;
