import path from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import type { Implementation } from "./implementation.ts";
import { IMPLEMENTATIONS } from "./implementation.ts";
import { DEFAULT_JOBS } from "./run-suite.ts";
import { RUNTIMES, type Runtime } from "./runtimes.ts";

/** The command-line options of `run.ts`. */
export interface CliOptions {
  /** The implementations to run, in order: one, or both with `--impl both` (native first). */
  readonly implementations: readonly Implementation[];
  /** `--runtime`'s runtimes, in order; empty without it (the suite then runs in this process only). */
  readonly runtimes: readonly Runtime[];
  /** `--module`: the module drainpipe is loaded from, or `undefined` for `src/streams/index.ts`. */
  readonly modulePath: string | undefined;
  readonly filter: string;
  readonly jsonOutput: string | undefined;
  readonly listFailures: boolean;
  readonly expectationsFile: string | undefined;
  readonly jobs: number;
  readonly help: boolean;
}

/** Usage text of `run.ts`. */
export const USAGE = `Usage: WPT_DIR=<wpt checkout> node test/wpt/run.ts [options]

Runs the web-platform-tests streams suite (streams/**/*.any.js) against a streams implementation.

Options:
  --impl drainpipe|native|both
                           implementation under test (default: drainpipe); both runs native, then drainpipe
  --runtime <list>         comma-separated runtimes among ${RUNTIMES.join(", ")}, or all; each runs the suite
                           (node20, node26, deno and bun in a child process, workerd through miniflare) and a table of
                           passed subtests per runtime and implementation ends the output (default: this process)
  --module <path>          the module drainpipe is loaded from (default: src/streams/index.ts); node20 and workerd
                           get an esbuild bundle of it
  --filter <substring>     only run files whose path (e.g. streams/piping/abort.any.js) contains it
  --json <file>            write every subtest's name, status and message (and what each file printed) to <file>
  --list-failures          print every non-passing subtest with its message
  --expect <file>          compare drainpipe's results with a file of known failures (test/wpt/expectations.json,
                           plus expectations.<runtime>.json next to it when it exists); the exit code is then
                           non-zero only for failures they do not list, or for subtests native streams pass
                           and drainpipe fails in the same run
  --jobs <n>               files run at once, each in its own worker thread (default: ${DEFAULT_JOBS})
  --help                   print this text

Exit code: 0 when every subtest passed (or, with --expect, every failure was expected), 1 otherwise,
2 when the run could not start (bad options, no WPT_DIR, no implementation).`;

/** Error raised for command-line options that cannot be used. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The options `run.ts` accepts, in `parseArgs` form. */
const OPTIONS = {
  impl: { type: "string", default: "drainpipe" },
  runtime: { type: "string" },
  module: { type: "string" },
  filter: { type: "string", default: "" },
  json: { type: "string" },
  "list-failures": { type: "boolean", default: false },
  expect: { type: "string" },
  jobs: { type: "string", default: String(DEFAULT_JOBS) },
  help: { type: "boolean", default: false },
} as const satisfies ParseArgsOptionsConfig;

/**
 * Parses `run.ts`'s command-line arguments.
 *
 * @example
 * ```ts
 * parseCliOptions(["--impl", "native", "--filter", "piping/"]).implementations; // ["native"]
 * ```
 */
export function parseCliOptions(args: readonly string[]): CliOptions {
  let values: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>
  >["values"];
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const implementations = values.impl === "both" ? ["native", "drainpipe"] : [values.impl];
  for (const name of implementations) {
    if (!IMPLEMENTATIONS.some((known) => known === name)) {
      throw new UsageError(`Cannot use --impl ${values.impl}: expected one of ${IMPLEMENTATIONS.join(", ")}, both`);
    }
  }
  const runtimes = values.runtime === "all" ? [...RUNTIMES] : (values.runtime?.split(",").filter(Boolean) ?? []);
  for (const name of runtimes) {
    if (!RUNTIMES.some((known) => known === name)) {
      throw new UsageError(`Cannot use --runtime ${values.runtime}: expected some of ${RUNTIMES.join(", ")}, or all`);
    }
  }
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new UsageError(`Cannot use --jobs ${values.jobs}: expected a positive integer`);
  }
  return {
    implementations: implementations as Implementation[],
    runtimes: runtimes as Runtime[],
    modulePath: values.module === undefined ? undefined : path.resolve(values.module),
    filter: values.filter,
    jsonOutput: values.json,
    listFailures: values["list-failures"],
    expectationsFile: values.expect,
    jobs,
    help: values.help,
  };
}
