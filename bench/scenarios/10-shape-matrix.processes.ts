/**
 * Scenario 10 in processes: the runtimes it starts (Node 20, 24 and 26, Bun, Deno), the rows each one measures,
 * and the interleaved rounds that start the runner (`10-shape-matrix.runner.ts`, bundled by esbuild) once per row
 * and round, every process loading one row's implementation only.
 *
 * @module
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";
import { findNode20 } from "../../scripts/node20.ts";
import { ensureNode26, STREAM_ITER_FLAG } from "../../scripts/node26.ts";
import { bundleDrainpipeStreams } from "../../tools/bundled-drainpipe.ts";
import { NATIVE } from "../implementations/streams-implementation.ts";
import { BATCH, DRAINPIPE, FAST, POLYFILL, type RunnerReport, STREAM_ITER } from "./10-shape-matrix.rows.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Where the runner's bundle and drainpipe's are written. */
const CACHE = resolve(ROOT, "bench/.cache/shape-matrix");
/** How long one process may take: 10 minutes. */
const PROCESS_TIMEOUT_MS = 600_000;

/** A runtime the scenario starts processes in. */
export interface ProcessRuntime {
  /** Its id in the reports, e.g. `node26`. */
  id: string;
  /** Its binary (throws when there is none: no Node 20 on the PATH, Node 26 not installable). */
  binary(): string;
  /** The arguments before the runner's path, for `row`. */
  flags(row: string): string[];
  /** The rows measured in it, in table order. */
  rows: readonly string[];
}

/** The rows of every Node. */
const NODE_ROWS = [NATIVE, POLYFILL, FAST, DRAINPIPE, BATCH] as const;

/** The project's binary `name`. */
function projectBinary(name: string): string {
  return resolve(ROOT, "node_modules/.bin", name);
}

/** The machine's Node 20; throws when there is none (the scenario measures the library there). */
function machineNode20(): string {
  const found = findNode20();
  if (found === undefined) throw new Error("Cannot run the shape matrix on Node 20: no Node 20 on the PATH");
  return found;
}

/** The runtimes, in report order. */
export const PROCESS_RUNTIMES: readonly ProcessRuntime[] = [
  { id: "node20", binary: machineNode20, flags: () => [], rows: NODE_ROWS },
  { id: "node24", binary: () => projectBinary("node"), flags: () => [], rows: NODE_ROWS },
  {
    id: "node26",
    binary: ensureNode26,
    flags: (row) => (row === STREAM_ITER ? [STREAM_ITER_FLAG, "--no-warnings"] : []),
    rows: [...NODE_ROWS, STREAM_ITER],
  },
  { id: "bun", binary: () => projectBinary("bun"), flags: () => [], rows: [NATIVE, DRAINPIPE, BATCH] },
  {
    id: "deno",
    binary: () => projectBinary("deno"),
    flags: () => ["run", "--no-prompt", `--allow-read=${CACHE}`],
    rows: [NATIVE, DRAINPIPE, BATCH],
  },
];

/** The bundles every process loads: the runner and drainpipe's streams. */
export interface MatrixBundles {
  /** The runner, one ES module (its packages left to Node's resolution). */
  runner: string;
  /** drainpipe's streams, the same bundle scenario 1 measures (`tools/bundled-drainpipe.ts`). */
  drainpipe: string;
}

/** Builds the runner's bundle and drainpipe's into `bench/.cache/shape-matrix/`. */
export async function buildBundles(): Promise<MatrixBundles> {
  const runner = resolve(CACHE, "runner.mjs");
  await build({
    entryPoints: [resolve(import.meta.dirname, "10-shape-matrix.runner.ts")],
    outfile: runner,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    packages: "external",
    logLevel: "silent",
  });
  return { runner, drainpipe: await bundleDrainpipeStreams(resolve(CACHE, "drainpipe-streams.js")) };
}

/** The version `binary --version` prints (its first x.y.z), for the reports. */
export function versionOf(binary: string): string {
  const printed = execFileSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return /\d+\.\d+\.\d+/.exec(printed)?.[0] ?? printed.trim();
}

/** What one row's sizes are: chunks scale and timed runs per process. */
export interface ProcessSizes {
  /** The matrix's `count`. */
  count: number;
  /** Timed runs of each shape per process (the best counts). */
  runs: number;
  /** Only the shapes whose names contain one of these texts (every shape when absent). */
  shapes?: readonly string[];
}

/**
 * Starts the runner for `row` on `runtime` and returns its report.
 *
 * @throws {Error} when the process printed no report (it failed to start, crashed or timed out).
 */
export function runProcess(
  runtime: ProcessRuntime,
  binary: string,
  row: string,
  bundles: MatrixBundles,
  { count, runs, shapes = [] }: ProcessSizes,
): Promise<RunnerReport> {
  const args = [
    ...runtime.flags(row),
    bundles.runner,
    "--implementation",
    row,
    "--bundle",
    bundles.drainpipe,
    "--count",
    String(count),
    "--runs",
    String(runs),
    ...shapes.flatMap((text) => ["--shape", text]),
  ];
  const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  return new Promise((resolvePromise, reject) => {
    execFile(
      binary,
      args,
      { cwd: ROOT, env, timeout: PROCESS_TIMEOUT_MS, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        try {
          resolvePromise(JSON.parse(stdout) as RunnerReport);
        } catch {
          const reason = (stderr.trim() || error?.message || "it printed no report").replace(/\s+/g, " ");
          reject(new Error(`Cannot run ${row} on ${runtime.id}: ${reason.slice(0, 1000)}`, { cause: error }));
        }
      },
    );
  });
}

/** Whether `binary` exists (a missing project binary leaves its runtime unmeasured). */
export function installed(binary: string): boolean {
  return existsSync(binary);
}
