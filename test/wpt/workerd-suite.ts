/**
 * Runs the WPT streams suite inside workerd (through miniflare): one worker per test file, each in its own isolate so
 * that every file starts from a fresh global, all in one workerd process. Each worker is `workerd-file-runner.ts`
 * (bundled) plus, for drainpipe, the bundled module under test as a second module.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import type { FileResult, HarnessStatus, SubtestResult } from "./results.ts";
import { FILE_TIMEOUT_MS } from "./run-file.ts";
import type { RunnableTestFile } from "./test-discovery.ts";
import { discoverTestFiles } from "./test-discovery.ts";
import { describeError } from "./worker-like-global.ts";
import type { WorkerdFileRequest, WorkerdFileResponse } from "./workerd-file-runner.ts";

/** How long a file's worker gets to answer after testharness.js was told to time out; then the file is a `CRASH`. */
const TERMINATION_GRACE_MS = 2_000;
const RUNNER_ENTRY = new URL("./workerd-file-runner.ts", import.meta.url).pathname;
const WRANGLER_TOML = new URL("../../wrangler.toml", import.meta.url).pathname;
const IMPLEMENTATION_MODULE = "./implementation-under-test.js";

/** Options of {@link runSuiteInWorkerd}. */
export interface WorkerdSuiteOptions {
  readonly wptDir: string;
  /** A single-file ES module exporting the stream classes (a bundle), or `null` for workerd's own streams. */
  readonly bundlePath: string | null;
  readonly filter: string;
  /** How many files run at once. */
  readonly jobs: number;
  readonly onFileDone?: (result: FileResult) => void;
}

/** The project's `compatibility_date` (wrangler.toml), so that workerd's streams behave as the worker's do. */
function compatibilityDate(): string {
  const match = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(WRANGLER_TOML, "utf8"));
  if (match?.[1] === undefined) {
    throw new Error(`Cannot run the suite in workerd: no compatibility_date in ${WRANGLER_TOML}`);
  }
  return match[1];
}

async function bundleRunner(): Promise<string> {
  const result = await build({
    entryPoints: [RUNNER_ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) {
    throw new Error("Cannot run the suite in workerd: esbuild produced no runner bundle");
  }
  return output.text;
}

/**
 * Runs the selected files in workerd, `jobs` at a time, and resolves with one result per file, sorted by name, and
 * the skipped files. A file whose worker fails or does not answer in time gets the harness status `CRASH`.
 *
 * @example
 * ```ts
 * const { files } = await runSuiteInWorkerd({ wptDir, bundlePath: null, filter: "piping/", jobs: 2 });
 * ```
 */
export async function runSuiteInWorkerd(
  options: WorkerdSuiteOptions,
): Promise<{ files: FileResult[]; skipped: ReturnType<typeof discoverTestFiles>["skipped"] }> {
  const { runnable, skipped } = discoverTestFiles(options.wptDir, options.filter);
  const runner = await bundleRunner();
  const modules = [{ type: "ESModule" as const, path: "runner.js", contents: runner }];
  if (options.bundlePath !== null) {
    modules.push({
      type: "ESModule",
      path: IMPLEMENTATION_MODULE.slice(2),
      contents: readFileSync(options.bundlePath, "utf8"),
    });
  }
  const checkout = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    try {
      return new Response(await readFile(path.join(options.wptDir, url.pathname), "utf8"));
    } catch (error) {
      return new Response(describeError(error), { status: 404 });
    }
  };
  const date = compatibilityDate();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: runnable.map((_, index) => ({
        name: `file${index}`,
        modules,
        compatibilityDate: date,
        unsafeEvalBinding: "UNSAFE_EVAL",
        serviceBindings: { CHECKOUT: checkout },
      })),
    }),
  );
  try {
    await mf.ready;
    const files: FileResult[] = [];
    const queue = runnable.map((file, index) => ({ file, index }));
    const lane = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const result = await runFileInWorkerd(mf, `file${next.index}`, next.file, options.bundlePath !== null);
        files.push(result);
        options.onFileDone?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, lane));
    files.sort((a, b) => a.file.localeCompare(b.file));
    return { files, skipped };
  } finally {
    await mf.dispose();
  }
}

async function runFileInWorkerd(
  mf: Miniflare,
  workerName: string,
  file: RunnableTestFile,
  withImplementation: boolean,
): Promise<FileResult> {
  const wptDir = file.absolutePath.slice(0, file.absolutePath.length - file.name.length);
  const scriptPaths = [path.join(wptDir, "resources/testharness.js"), ...file.scripts, file.absolutePath];
  const timeoutMs = file.longTimeout ? FILE_TIMEOUT_MS.long : FILE_TIMEOUT_MS.normal;
  const body: WorkerdFileRequest = {
    scripts: scriptPaths.map((filename) => ({ source: readFileSync(filename, "utf8"), filename })),
    title: file.title,
    implementationModule: withImplementation ? IMPLEMENTATION_MODULE : null,
    timeoutMs,
  };
  const subtests: SubtestResult[] = [];
  let status: HarnessStatus = "CRASH";
  let message: string | null = null;
  let output = "";
  try {
    const worker = await mf.getWorker(workerName);
    const response = await worker.fetch("http://wpt/run", {
      method: "POST",
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs + TERMINATION_GRACE_MS),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`the worker answered ${response.status}: ${text.slice(0, 500)}`);
    }
    const answer = JSON.parse(text) as WorkerdFileResponse;
    output = answer.output;
    for (const received of answer.messages) {
      if (received.kind === "subtest") {
        subtests.push(received.result);
      } else {
        status = received.status;
        message = received.message;
      }
    }
  } catch (error) {
    message = `Worker failed: ${describeError(error)}`;
  }
  return { file: file.name, harnessStatus: status, harnessMessage: message, subtests, output };
}
