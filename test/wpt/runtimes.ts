/**
 * Runs the WPT streams suite on a given JavaScript runtime: Node 24 (this process), Node 20, Node 26, Deno and Bun
 * (a child process running this same runner, whose file workers are worker threads there) and workerd (through
 * miniflare, see `workerd-suite.ts`).
 *
 * The module under test is a parameter (by default `src/streams/index.ts`). Node 24, Deno and Bun import it as given;
 * Node 20 cannot load `.ts` sources and workerd needs a single module, so both get an esbuild bundle of it, built
 * with `keepNames` (without it esbuild renames a bundled class that shadows a global, `ReadableStream` becoming
 * `ReadableStream2`, and the "interface object name" subtests fail).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findNode20 as findMachineNode20 } from "../../scripts/node20.ts";
import { ensureNode26 } from "../../scripts/node26.ts";
import { DRAINPIPE_MODULE_PATH, ImplementationUnavailableError } from "./implementation.ts";
import type { SuiteOptions, SuiteResult } from "./run-suite.ts";
import { runSuite } from "./run-suite.ts";

/** The runtimes the suite can run on. */
export const RUNTIMES = ["node24", "node20", "node26", "deno", "bun", "workerd"] as const;

/** One of {@link RUNTIMES}. */
export type Runtime = (typeof RUNTIMES)[number];

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CACHE_DIR = path.join(ROOT, "test/wpt/.cache");
const RUN_ENTRY = fileURLToPath(new URL("./run.ts", import.meta.url));
const FILE_WORKER_ENTRY = fileURLToPath(new URL("./file-worker.ts", import.meta.url));

/** Options of {@link runSuiteOnRuntime}. */
export interface RuntimeSuiteOptions extends SuiteOptions {
  /** The runtime to run the suite on; `onFileDone` is called only for in-process runs (Node 24, workerd). */
  readonly runtime: Runtime;
}

function localBinary(name: string): string {
  return path.join(ROOT, "node_modules/.bin", name);
}

/** The Node 20 binary (see `scripts/node20.ts`); throws `ImplementationUnavailableError` when there is none. */
export function findNode20(): string {
  const found = findMachineNode20();
  if (found === undefined) {
    throw new ImplementationUnavailableError(
      "Cannot run on Node 20: no node 20 on PATH (set WPT_NODE20 to its binary)",
    );
  }
  return found;
}

/**
 * Bundles `entry` into one ES module at `outfile` with esbuild, keeping class and function names.
 *
 * @example
 * ```ts
 * await bundleModuleUnderTest("src/streams/index.ts", "/tmp/drainpipe-streams.mjs");
 * ```
 */
export async function bundleModuleUnderTest(entry: string, outfile: string): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    keepNames: true,
    logLevel: "silent",
  });
  return outfile;
}

/** Bundles this runner (`run.ts` and `file-worker.ts`) into `.mjs` files Node 20 can run, in `outdir`. */
async function bundleRunner(outdir: string): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [RUN_ENTRY, FILE_WORKER_ENTRY],
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "silent",
  });
  return path.join(outdir, "run.mjs");
}

/** How to start this runner in a child process on `runtime`: the binary and the arguments before the runner's own. */
async function childCommand(runtime: Exclude<Runtime, "workerd">): Promise<[string, string[]]> {
  switch (runtime) {
    case "node20":
      return [findNode20(), [await bundleRunner(path.join(CACHE_DIR, "runner-node20"))]];
    case "node26":
      return [ensureNode26(), [RUN_ENTRY]];
    case "node24":
      return [localBinary("node"), [RUN_ENTRY]];
    case "deno":
      return [localBinary("deno"), ["run", "--allow-all", "--no-prompt", RUN_ENTRY]];
    case "bun":
      return [localBinary("bun"), [RUN_ENTRY]];
  }
}

/** The module a runtime imports for drainpipe: `modulePath` itself, or a bundle of it for Node 20 and workerd. */
async function moduleFor(runtime: Runtime, modulePath: string): Promise<string> {
  if (runtime !== "node20" && runtime !== "workerd") {
    return modulePath;
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  return bundleModuleUnderTest(modulePath, path.join(CACHE_DIR, `module-under-test.${runtime}.mjs`));
}

/**
 * Runs the suite on `runtime` and resolves with its results, as {@link runSuite} does in this process.
 * Throws `ImplementationUnavailableError` when the runtime or the module cannot be started at all.
 *
 * @example
 * ```ts
 * const run = await runSuiteOnRuntime({ wptDir, runtime: "deno", implementation: "native", filter: "", jobs: 2 });
 * ```
 */
export async function runSuiteOnRuntime(options: RuntimeSuiteOptions): Promise<SuiteResult> {
  const modulePath = await moduleFor(options.runtime, options.modulePath ?? DRAINPIPE_MODULE_PATH);
  if (options.runtime === "workerd") {
    const { runSuiteInWorkerd } = await import("./workerd-suite.ts");
    const drainpipe = options.implementation === "drainpipe";
    const { files, skipped } = await runSuiteInWorkerd({
      wptDir: options.wptDir,
      bundlePath: drainpipe ? modulePath : null,
      filter: options.filter,
      jobs: options.jobs,
      onFileDone: options.onFileDone,
    });
    return { implementation: options.implementation, files, skipped, missingExports: [] };
  }
  if (options.runtime === "node24" && process.versions.node.startsWith("24.")) {
    return runSuite({ ...options, modulePath });
  }
  const [binary, prefix] = await childCommand(options.runtime);
  const outputDir = mkdtempSync(path.join(tmpdir(), "drainpipe-wpt-"));
  const jsonFile = path.join(outputDir, "run.json");
  const args = [...prefix, "--impl", options.implementation, "--module", modulePath, "--filter", options.filter];
  args.push("--jobs", String(options.jobs), "--json", jsonFile);
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        binary,
        args,
        {
          cwd: ROOT,
          env: { ...process.env, WPT_DIR: options.wptDir, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, _stdout, stderr) => {
          if (error !== null && !existsSync(jsonFile)) {
            const reason = `${stderr.trim() || error.message}`.slice(0, 2000);
            reject(new ImplementationUnavailableError(`Cannot run the suite on ${options.runtime}: ${reason}`));
          } else {
            resolve();
          }
        },
      );
    });
    const run = JSON.parse(readFileSync(jsonFile, "utf8")) as SuiteResult;
    for (const file of run.files) {
      options.onFileDone?.(file);
    }
    return {
      implementation: run.implementation,
      files: run.files,
      skipped: run.skipped,
      missingExports: run.missingExports,
    };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}
