/**
 * Scenario 12's program inside a browser, bundled by esbuild once per implementation (so no call site of the shapes
 * is shared between implementations): every shape of scenario 10's matrix (`bench/workloads/matrix-shapes.ts`) and
 * every standard shape of scenario 1 (`bench/workloads/chunk-pipe-shapes.ts`), run with one implementation's
 * classes, every run's tally checked.
 *
 * In a page it defines `globalThis.benchInPage(options)`, which measures there, and
 * `globalThis.benchInWorker(options)`, which starts this same script as a dedicated worker and measures there;
 * both resolve with a {@linkcode BrowserBenchReport}. In a worker it answers one message (the options) with the
 * report.
 *
 * @module
 */
import type { StreamsImplementation } from "../implementations/streams-implementation.ts";
import { expectedTally, PIPE_SHAPES } from "../workloads/chunk-pipe-shapes.ts";
import type { Tally } from "../workloads/matrix-chunks.ts";
import type { MatrixShape } from "../workloads/matrix-shape.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";
import type { ShapeReport } from "./10-shape-matrix.rows.ts";

/** The sizes of one measurement. */
export interface BrowserBenchOptions {
  /** The matrix's `count` (chunks per run of most shapes). */
  matrixCount: number;
  /** Timed runs of each matrix shape after one untimed; the best counts. */
  runs: number;
  /** Chunks per run of scenario 1's shapes. */
  pipeCount: number;
  /** Timed runs of each of scenario 1's shapes after one untimed; the median counts. */
  pipeSamples: number;
  /** Only the matrix shapes whose names contain one of these texts, and none of scenario 1's (for profiling). */
  only?: string[];
}

/** The samples of one of scenario 1's shapes. */
export interface PipeReport {
  shape: string;
  /** Every timed run, ms; empty when a run failed. */
  samplesMs: number[];
  /** Why a run failed: a wrong tally or an error. */
  failure?: string;
}

/** What one measurement reports. */
export interface BrowserBenchReport {
  userAgent: string;
  /** Every matrix shape, in matrix order. */
  matrix: ShapeReport[];
  /** Every standard shape of scenario 1, in its order. */
  pipes: PipeReport[];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sameTally(got: Tally, expected: Tally): boolean {
  return got.count === expected.count && got.sum === expected.sum;
}

/** One untimed run of `shape`, then `runs` timed ones, the best kept. */
async function measureShape(
  shape: MatrixShape,
  implementation: StreamsImplementation,
  count: number,
  runs: number,
): Promise<ShapeReport> {
  if (shape.supported && !(await shape.supported(implementation))) return { shape: shape.name, unsupported: true };
  const expected = shape.expected(count);
  let bestMs = Number.POSITIVE_INFINITY;
  let tally: Tally | undefined;
  for (let run = 0; run <= runs; run++) {
    const start = performance.now();
    try {
      tally = await shape.standard(implementation, count);
    } catch (error) {
      return { shape: shape.name, failure: `threw ${describe(error)}` };
    }
    const ms = performance.now() - start;
    if (!sameTally(tally, expected)) {
      return {
        shape: shape.name,
        tally,
        failure: `tally ${tally.count}/${tally.sum}, expected ${expected.count}/${expected.sum}`,
      };
    }
    if (run > 0) bestMs = Math.min(bestMs, ms);
  }
  return { shape: shape.name, bestMs, tally };
}

/** One untimed run of each of scenario 1's standard shapes, then `samples` timed ones. */
async function measurePipes(
  implementation: StreamsImplementation,
  count: number,
  samples: number,
): Promise<PipeReport[]> {
  const expected = expectedTally(count);
  const reports: PipeReport[] = [];
  for (const shape of PIPE_SHAPES.filter((candidate) => !candidate.extension)) {
    const report: PipeReport = { shape: shape.name, samplesMs: [] };
    for (let run = 0; run <= samples; run++) {
      const start = performance.now();
      try {
        const tally = await shape.run(implementation, count);
        if (!sameTally(tally, expected)) {
          report.failure = `tally ${tally.count}/${tally.sum}, expected ${expected.count}/${expected.sum}`;
          break;
        }
      } catch (error) {
        report.failure = `threw ${describe(error)}`;
        break;
      }
      if (run > 0) report.samplesMs.push(performance.now() - start);
    }
    if (report.failure !== undefined) report.samplesMs = [];
    reports.push(report);
  }
  return reports;
}

/** Measures every shape with `implementation`. */
async function measure(
  implementation: StreamsImplementation,
  options: BrowserBenchOptions,
): Promise<BrowserBenchReport> {
  const { only } = options;
  const shapes = MATRIX_SHAPES.filter((shape) => only === undefined || only.some((text) => shape.name.includes(text)));
  const matrix: ShapeReport[] = [];
  for (const shape of shapes) matrix.push(await measureShape(shape, implementation, options.matrixCount, options.runs));
  const pipes = only === undefined ? await measurePipes(implementation, options.pipeCount, options.pipeSamples) : [];
  return { userAgent: navigator.userAgent, matrix, pipes };
}

/** The functions a page gets. */
export interface BenchGlobals {
  benchInPage(options: BrowserBenchOptions): Promise<BrowserBenchReport>;
  benchInWorker(options: BrowserBenchOptions): Promise<BrowserBenchReport>;
}

/**
 * Makes this script measure `implementation`: in a page, through {@linkcode BenchGlobals}; in a dedicated worker,
 * by answering the options it is sent.
 */
export function serve(implementation: StreamsImplementation): void {
  if (typeof document === "undefined") {
    self.onmessage = (event: MessageEvent<BrowserBenchOptions>) => {
      measure(implementation, event.data).then((report) => postMessage(report));
    };
    return;
  }
  const source = (document.currentScript as HTMLScriptElement).src;
  const globals: BenchGlobals = {
    benchInPage: (options) => measure(implementation, options),
    benchInWorker: (options) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(source);
        worker.onmessage = (event: MessageEvent<BrowserBenchReport>) => {
          resolve(event.data);
          worker.terminate();
        };
        worker.onerror = (event) => reject(new Error(`the worker failed: ${event.message}`));
        worker.postMessage(options);
      }),
  };
  Object.assign(globalThis, globals);
}
