/**
 * Scenario 12: the browsers. Scenario 10's shape matrix and scenario 1's chunk pipes, in headless Chromium
 * (playwright-core) and Firefox ESR (puppeteer-core over WebDriver BiDi), in a page and in a dedicated worker, the
 * browser's own streams against drainpipe's. Each implementation runs from an esbuild bundle of its own
 * (`12-browsers.page.ts`, drainpipe bundled from `src/streams`) in a browser context of its own, served by a local
 * server under `Content-Security-Policy: script-src 'self'`. Rounds are interleaved (round r measures every
 * browser, scope and implementation once before round r + 1); a matrix cell is the median over rounds of each
 * round's best run, a chunk-pipe cell the median of every round's samples.
 *
 * Run alone: `npx node bench/scenarios/12-browsers.ts [--matrixCount N] [--pipeCount N] [--rounds N] [--runs N]`
 * (`--quick` for the quick run's sizes). A browser that is not installed is skipped with one line saying how to
 * install it.
 *
 * @module
 */
import { median } from "simple-statistics";
import { BROWSERS, type BrowserName, findBrowser, launchBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { htmlPage, script, startServer } from "../../harness/page-server.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult, Speedup } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { DRAINPIPE, NATIVE } from "../implementations/streams-implementation.ts";
import { PIPE_SHAPES } from "../workloads/chunk-pipe-shapes.ts";
import { type MatrixMeasurement, matrixResult, newMeasurement, recordShape } from "./10-shape-matrix.table.ts";
import { benchPageBundle } from "./12-browsers.bundle.ts";
import type { BenchGlobals, BrowserBenchOptions, BrowserBenchReport } from "./12-browsers.page.ts";

/** The two implementations, in table order. */
const ROWS = [NATIVE, DRAINPIPE] as const;
/** Where a measurement runs. */
const SCOPES = ["page", "worker"] as const;
type Scope = (typeof SCOPES)[number];

/** Options of scenario 12. */
export interface BrowsersOptions {
  /** The matrix's `count` (default 50,000). */
  matrixCount?: number;
  /** Chunks per run of scenario 1's shapes (default 100,000). */
  pipeCount?: number;
  /** Rounds, interleaved (default 3). */
  rounds?: number;
  /** Timed runs per matrix shape in each round, the best counts (default 2); scenario 1's shapes get 2 more. */
  runs?: number;
}

/** Everything measured in one browser and scope. */
interface Cell {
  matrix: MatrixMeasurement;
  /** Scenario 1's samples, by implementation then shape. */
  pipes: Map<string, Map<string, number[]>>;
  failures: string[];
}

/** Scenario 1's table for one browser and scope. */
function pipesResult(id: string, label: string, cell: Cell, options: Required<BrowsersOptions>): ScenarioResult {
  const speedups: Speedup[] = [];
  const rateOf = (row: string, shape: string): number | undefined => {
    const samples = cell.pipes.get(row)?.get(shape);
    return samples === undefined || samples.length === 0 ? undefined : options.pipeCount / (median(samples) / 1000);
  };
  const shapes = PIPE_SHAPES.filter((shape) => !shape.extension).map((shape) => shape.name);
  const rows = shapes.map((shape) => {
    const native = rateOf(NATIVE, shape);
    const drainpipe = rateOf(DRAINPIPE, shape);
    const ratio = native === undefined || drainpipe === undefined ? undefined : significant(drainpipe / native);
    if (ratio !== undefined) speedups.push({ label: `${id}: ${shape}`, value: ratio });
    return {
      shape,
      "native chunks/s": native === undefined ? "failed" : Math.round(native),
      "drainpipe chunks/s": drainpipe === undefined ? "failed" : Math.round(drainpipe),
      "drainpipe ÷ native": ratio ?? "–",
    };
  });
  const checks: OutputCheck[] = shapes.map((shape) => {
    const failures = cell.failures.filter((failure) => failure.includes(`, ${shape}: `));
    return {
      variant: `${id}: ${shape}`,
      ok: failures.length === 0 && ROWS.every((row) => (cell.pipes.get(row)?.get(shape)?.length ?? 0) > 0),
      detail:
        failures.join("; ") ||
        `every run of native and drainpipe tallied ${options.pipeCount} chunks summing to 0 + … + ` +
          `${options.pipeCount - 1}`,
    };
  });
  return {
    id: `chunk-pipes-${id}`,
    title: `chunk pipes (${id}), ${options.pipeCount.toLocaleString("en")} chunks`,
    runtime: label,
    columns: ["shape", "native chunks/s", "drainpipe chunks/s", "drainpipe ÷ native"],
    rows,
    notes: [
      `Scenario 1's standard shapes (bench/workloads/chunk-pipe-shapes.ts) in ${label}: each implementation from ` +
        "its own esbuild bundle in its own browser context; per round one untimed run, then " +
        `${options.runs + 2} timed; a cell is the median of every round's timed runs (${options.rounds} rounds).`,
    ],
    speedups,
    checks,
  };
}

/** The results of a browser that is not installed: one line saying how to install it. */
function notMeasured(name: BrowserName): ScenarioResult {
  const line = missingBrowserLine(name, "bench scenario 12");
  console.warn(line);
  return {
    id: `browsers-${name}`,
    title: `browsers (${name}): not measured`,
    runtime: name,
    columns: ["browser", "measured"],
    rows: [{ browser: name, measured: "no" }],
    notes: [line],
    speedups: [],
    checks: [{ variant: name, ok: true, detail: `skipped: ${line}` }],
  };
}

/** Scenario 12. */
export const scenario = defineScenario<BrowsersOptions>({
  id: "browsers",
  title: "Browsers",
  measures:
    "chunks/s of scenario 10's shape matrix and scenario 1's chunk pipes in headless Chromium and Firefox ESR, in a " +
    "page and in a dedicated worker, the browser's own streams against drainpipe's, each from its own bundle in " +
    "its own browser context.",
  why:
    "browsers are where web streams were born and where a streams library is most often installed: drainpipe " +
    "must be at least as fast as their own streams, and serve SpiderMonkey as well as V8 (issue 39).",
  options: {
    matrixCount: "chunks per run of most matrix shapes (default 50,000)",
    pipeCount: "chunks per run of scenario 1's shapes (default 100,000)",
    rounds: "rounds, interleaved (default 3)",
    runs: "timed runs per matrix shape in each round, the best counts (default 2)",
  },
  quick: { matrixCount: 200, pipeCount: 2_000, rounds: 1, runs: 1 },
  async run(given): Promise<ScenarioResult[]> {
    const options: Required<BrowsersOptions> = {
      matrixCount: given.matrixCount ?? 50_000,
      pipeCount: given.pipeCount ?? 100_000,
      rounds: given.rounds ?? 3,
      runs: given.runs ?? 2,
    };
    const sizes: BrowserBenchOptions = {
      matrixCount: options.matrixCount,
      runs: options.runs,
      pipeCount: options.pipeCount,
      pipeSamples: options.runs + 2,
    };
    const server = await startServer();
    const results: ScenarioResult[] = [];
    try {
      for (const row of ROWS) {
        server.files.set(`/${row}/`, htmlPage([`/${row}/bench.js`]));
        server.files.set(`/${row}/bench.js`, script(await benchPageBundle(row)));
      }
      for (const name of BROWSERS) {
        const binary = findBrowser(name);
        if (binary === undefined) {
          results.push(notMeasured(name));
          continue;
        }
        const browser = await launchBrowser(name, binary);
        const cells = new Map<Scope, Cell>();
        try {
          const method =
            `Each implementation from its own esbuild bundle, in its own browser context of ${browser.version}, ` +
            `${options.rounds} rounds interleaved over scopes and implementations; per round every shape once ` +
            `untimed, then ${options.runs} timed, the best kept; a cell is the median over rounds of those bests. ` +
            "Every run's tally was checked.";
          for (const scope of SCOPES) {
            const id = `${name}-${scope}`;
            const label = `${browser.version}, ${scope === "page" ? "a page" : "a dedicated worker"}`;
            cells.set(scope, {
              matrix: newMeasurement(id, label, options.matrixCount, ROWS, [method]),
              pipes: new Map(),
              failures: [],
            });
          }
          for (let round = 0; round < options.rounds; round++) {
            for (const scope of SCOPES) {
              for (const row of ROWS) {
                const cell = cells.get(scope)!;
                const started = performance.now();
                const context = await browser.newContext();
                try {
                  const page = await context.newPage();
                  await page.goto(`${server.origin}/${row}/`);
                  const report: BrowserBenchReport = await page.evaluate(
                    ({ inWorker, sizes }) => {
                      const globals = globalThis as unknown as BenchGlobals;
                      return inWorker ? globals.benchInWorker(sizes) : globals.benchInPage(sizes);
                    },
                    { inWorker: scope === "worker", sizes },
                  );
                  for (const shape of report.matrix) recordShape(cell.matrix, row, shape, shape.bestMs);
                  for (const pipe of report.pipes) {
                    if (pipe.failure !== undefined) cell.failures.push(`${row}, ${pipe.shape}: ${pipe.failure}`);
                    const byShape = cell.pipes.get(row) ?? new Map<string, number[]>();
                    byShape.set(pipe.shape, [...(byShape.get(pipe.shape) ?? []), ...pipe.samplesMs]);
                    cell.pipes.set(row, byShape);
                  }
                } catch (error) {
                  cell.matrix.failures.push(
                    `process ${row}: ${error instanceof Error ? error.message : String(error)}`,
                  );
                } finally {
                  await context.close();
                }
                const seconds = Math.round((performance.now() - started) / 1000);
                console.log(`scenario 12: ${name}, round ${round + 1}, ${scope}, ${row}: ${seconds} s`);
              }
            }
          }
        } finally {
          await browser.close();
        }
        for (const scope of SCOPES) {
          const cell = cells.get(scope)!;
          results.push(matrixResult(cell.matrix));
          results.push(pipesResult(cell.matrix.id, cell.matrix.label, cell, options));
        }
      }
    } finally {
      await server.close();
    }
    return results;
  },
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
