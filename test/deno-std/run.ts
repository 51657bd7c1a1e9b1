/**
 * Runs Deno's standard library `@std/streams` test suite (`streams/*_test.ts` of a checkout of denoland/std named
 * by `DENO_STD_DIR`) under the project's Deno, with the platform's own streams (`native`) and with drainpipe's
 * classes installed as the globals (`drainpipe`, through `install-globals.ts`), and compares drainpipe's failures
 * with the known ones in `expectations.json`. The suite is never copied into this repository. See `README.md`.
 * @module
 */

import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { DRAINPIPE_MODULE_PATH, IMPLEMENTATIONS, type Implementation } from "../wpt/implementation.ts";
import { parseTap, type TapResult } from "./tap.ts";

const USAGE = `Usage: DENO_STD_DIR=<denoland/std checkout> npx node test/deno-std/run.ts [options]

Runs @std/streams' tests (streams/*_test.ts) under node_modules/.bin/deno.

Options:
  --impl drainpipe|native|both  streams under test (default: both, native first); drainpipe installs drainpipe's
                                classes as the globals before the suite loads
  --module <path>               the module drainpipe is loaded from (default: src/streams/index.ts)
  --expect <file>               known drainpipe failures (test/deno-std/expectations.json): the exit code is then
                                non-zero only for a failure the file does not list, or a listed test that passed
  --list-failures               print every failing test with the first line of its message
  --help                        print this text

Exit code: 0 when every test passed (with --expect: when the failures were the expected ones), 1 otherwise,
2 when the run could not start.`;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DENO = path.join(ROOT, "node_modules/.bin/deno");
const PRELOAD = fileURLToPath(new URL("./install-globals.ts", import.meta.url));

/** A run that cannot start: a missing checkout, binary or module, a bad option. */
class RunUnavailableError extends Error {
  override readonly name = "RunUnavailableError";
}

/** The key of a test in an expectations file: `<file> > <name>`. */
function testKey(result: TapResult): string {
  return `${result.file} > ${result.name}`;
}

function runSuite(stdDir: string, implementation: Implementation, modulePath: string): Promise<TapResult[]> {
  const preload = implementation === "drainpipe" ? ["--preload", PRELOAD] : [];
  const args = ["test", "--no-lock", "--no-remote", "--no-npm", "--no-check", "-A", "--reporter=tap", ...preload];
  const env = {
    ...process.env,
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    DRAINPIPE_MODULE: pathToFileURL(modulePath).href,
  };
  return new Promise((resolve, reject) => {
    execFile(
      DENO,
      [...args, "streams/"],
      { cwd: stdDir, env, timeout: 300_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const results = parseTap(stdout);
        if (results.length === 0) {
          const cause = error ?? undefined;
          reject(
            new RunUnavailableError(`Cannot run the suite (${implementation}): no test ran\n${stderr}`, { cause }),
          );
          return;
        }
        resolve(results);
      },
    );
  });
}

function readExpectations(file: string): Map<string, string> {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  return new Map(Object.entries(parsed).map(([key, reason]) => [key, String(reason)]));
}

/** What `--expect` finds wrong with a drainpipe run: failures not listed, listed tests that passed or are gone. */
function compareWithExpectations(results: readonly TapResult[], expected: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    const key = testKey(result);
    seen.add(key);
    if (!result.passed && !expected.has(key)) problems.push(`unexpected failure: ${key}: ${result.message}`);
    if (result.passed && expected.has(key)) problems.push(`expected to fail, passed (remove it): ${key}`);
  }
  for (const key of expected.keys()) {
    if (!seen.has(key)) problems.push(`expected to fail, not in this suite (remove it): ${key}`);
  }
  return problems;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      impl: { type: "string", default: "both" },
      module: { type: "string" },
      expect: { type: "string" },
      "list-failures": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const implementations: readonly Implementation[] =
    values.impl === "both" ? IMPLEMENTATIONS.toReversed() : IMPLEMENTATIONS.filter((name) => name === values.impl);
  if (implementations.length === 0) throw new RunUnavailableError(`Cannot run: unknown --impl ${values.impl}`);
  const stdDir = process.env.DENO_STD_DIR;
  if (stdDir === undefined || !existsSync(path.join(stdDir, "streams"))) {
    throw new RunUnavailableError("Cannot run: DENO_STD_DIR must name a checkout of denoland/std (with streams/)");
  }
  if (!existsSync(DENO)) throw new RunUnavailableError(`Cannot run: no ${DENO} (npm install)`);
  const modulePath = path.resolve(values.module ?? DRAINPIPE_MODULE_PATH);
  if (!existsSync(modulePath)) throw new RunUnavailableError(`Cannot run: no module ${modulePath}`);

  let exitCode = 0;
  for (const implementation of implementations) {
    const results = await runSuite(path.resolve(stdDir), implementation, modulePath);
    const failed = results.filter((result) => !result.passed);
    console.log(`${implementation}: ${results.length - failed.length} passed, ${failed.length} failed`);
    if (values["list-failures"]) {
      for (const result of failed) console.log(`  ${testKey(result)}: ${result.message}`);
    }
    if (implementation === "drainpipe" && values.expect !== undefined) {
      const problems = compareWithExpectations(results, readExpectations(values.expect));
      for (const problem of problems) console.log(`  ${problem}`);
      if (problems.length > 0) exitCode = 1;
    } else if (failed.length > 0) {
      exitCode = 1;
    }
  }
  return exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof RunUnavailableError || error instanceof TypeError ? 2 : 1;
  },
);
