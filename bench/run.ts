/**
 * `npm run bench` (and `npm run bench:quick`, with `--quick`): runs every scenario and writes the results.
 *
 * 1. scenarios 1 and 2 with `vitest bench` in Node and inside workerd (projects `bench-node` and
 *    `bench-workerd` of `vitest.config.ts`), collected from the files they leave in `bench/.cache/vitest/`;
 * 2. scenario 3 (number pipeline), 4 (HTTP ingest) and 5 (load) in this process.
 *
 * A full run writes `bench/results/<date>-node<major>.json`, `.md` and `.svg` and replaces the "Benchmarks"
 * section at the end of README.md; a quick run (tiny sizes, seconds) writes the same files under
 * `bench/.cache/quick/` and leaves README.md alone. Exits with 1 when any output check failed.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { runNumberPipeline } from "./scenarios/03-number-pipeline.ts";
import { runHttpIngest } from "./scenarios/04-http-ingest.ts";
import { runLoad } from "./scenarios/05-load.ts";
import { VITEST_RESULTS_DIR } from "./support/bench-files.ts";
import { describeMachine, type Machine } from "./support/machine.ts";
import { machineMarkdown, runMarkdown, scenarioMarkdown } from "./support/markdown-report.ts";
import type { ScenarioResult } from "./support/scenario-result.ts";
import { speedupChart } from "./support/speedup-chart.ts";
import { chunkPipesResult, drainingMatrixResult } from "./support/vitest-bench.ts";

const PROJECT_ROOT = resolve(import.meta.dirname, "..");
const quick = process.argv.includes("--quick");

/** Runs the vitest benchmarks; returns whether they passed. */
function runVitestBenches(): boolean {
  const vitest = resolve(PROJECT_ROOT, "node_modules/vitest/vitest.mjs");
  const args = [vitest, "bench", "--project", "bench-node (bench)", "--project", "bench-workerd (bench)"];
  const result = spawnSync(process.execPath, args, {
    cwd: PROJECT_ROOT,
    stdio: "inherit",
    env: { ...process.env, BENCH_QUICK: quick ? "1" : "0" },
  });
  return result.status === 0;
}

async function updateReadme(results: readonly ScenarioResult[], machine: Machine, stem: string): Promise<void> {
  const path = resolve(PROJECT_ROOT, "README.md");
  const readme = await readFile(path, "utf8");
  const heading = "\n## Benchmarks\n";
  const start = readme.indexOf(heading);
  const section = [
    heading,
    "`npm run bench` runs every scenario (about 10 minutes; keep the machine otherwise idle) and writes",
    "`bench/results/<date>-<runtime>.{json,md,svg}` and this section; `npm run bench:quick` runs them all with tiny",
    "sizes (under a minute, results under `bench/.cache/quick/`), and `test/bench/quick.test.ts`, part of `npm test`,",
    "runs the same scenario code with tiny sizes and checks every variant's output. Benchmarks assert nothing about",
    "time; every variant's output is checked in every run. Scenarios: `bench/chunk-pipes.bench.ts` (1),",
    "`bench/draining-matrix.bench.ts` (2), `bench/number-pipeline.ts` (3), `bench/http-ingest.ts` (4), `bench/load.ts`",
    "(5); the stream implementations compared are the table in `bench/implementations.ts`. Scenarios 1 and 2 load",
    "drainpipe from an esbuild bundle of `src/streams` (`bench/support/bundled-drainpipe.ts`), as wrangler bundles the",
    "worker: through vitest's module transform, every call between its modules would cost a property load.",
    "",
    `Latest run (${stem}): ${machineMarkdown(machine)}. Chart: [bench/results/${stem}.svg](bench/results/${stem}.svg).`,
    "",
    ...results.flatMap((result) => [scenarioMarkdown(result, 3), ""]),
  ].join("\n");
  await writeFile(path, `${start >= 0 ? readme.slice(0, start) : `${readme.trimEnd()}\n`}${section}`);
}

const machine = describeMachine();
const nodeLabel = `node ${machine.node}`;
const workerdLabel = `workerd ${machine.workerd} (@cloudflare/vitest-plugin)`;
await rm(resolve(PROJECT_ROOT, VITEST_RESULTS_DIR), { recursive: true, force: true });
const vitestPassed = runVitestBenches();
const results: ScenarioResult[] = [
  chunkPipesResult("node", nodeLabel, quick, vitestPassed),
  chunkPipesResult("workerd", workerdLabel, quick, vitestPassed),
  await drainingMatrixResult("node", nodeLabel, quick, vitestPassed),
  await drainingMatrixResult("workerd", workerdLabel, quick, vitestPassed),
];
console.log("scenario 3: number pipeline");
results.push(await runNumberPipeline(quick ? { count: 20_000, runs: 1 } : {}));
console.log("scenario 4: HTTP ingest");
results.push(await runHttpIngest(quick ? { bytes: 1_000_000, runs: 1 } : {}));
console.log("scenario 5: load");
results.push(await runLoad(quick ? { seconds: 1, connections: 2, bytes: 100_000 } : {}));

const date = new Date().toISOString().slice(0, 10);
const stem = `${date}-node${machine.node.split(".")[0]}`;
const directory = resolve(PROJECT_ROOT, quick ? "bench/.cache/quick" : "bench/results");
await mkdir(directory, { recursive: true });
await writeFile(resolve(directory, `${stem}.json`), `${JSON.stringify({ date, quick, machine, results }, null, 2)}\n`);
await writeFile(resolve(directory, `${stem}.md`), `${runMarkdown(results, machine, date, `${stem}.svg`)}\n`);
await writeFile(resolve(directory, `${stem}.svg`), speedupChart(results));
if (!quick) await updateReadme(results, machine, stem);

const failed = results.flatMap((result) =>
  result.checks.filter((check) => !check.ok).map((check) => `${result.id}: ${check.variant}: ${check.detail}`),
);
for (const failure of failed) console.error(`FAILED CHECK ${failure}`);
console.log(`wrote ${resolve(directory, stem)}.{json,md,svg}${quick ? "" : " and the README's Benchmarks section"}`);
if (failed.length > 0) process.exitCode = 1;
