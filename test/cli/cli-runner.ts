/**
 * Runs the `drainpipe` command (and the project's other scripts) as a user would: a child process of the
 * project's Node running `src/cli/main.ts`, in a working directory of the test's choosing.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE = resolve(ROOT, "node_modules/.bin/node");

/** Where and how to run a script. */
export interface RunOptions {
  /** The working directory. */
  cwd: string;
  /** Variables added to (or replacing) this process's environment. */
  env?: Record<string, string>;
  /** Called with the child process once spawned (to signal it, say). */
  onStart?: (child: ChildProcess) => void;
}

/** How a run of the command ended. */
export interface CliRun {
  /** The exit code (`null` when killed by a signal). */
  code: number | null;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/**
 * Runs `drainpipe ...args` in `cwd` with a clean environment (no `DRAINPIPE_URL` or `DRAINPIPE_TOKEN` unless
 * `env` sets them) and collects its output.
 */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliRun> {
  return runScript("src/cli/main.ts", args, options);
}

/**
 * Builds the package (`dist/`, as `npm install` and `npm pack` do) and runs its bin, `dist/cli/main.js`: the CLI
 * exactly as users run it, bundled, without Node's type stripping of the sources.
 *
 * @example
 * ```ts
 * const run = await runBuiltCli(["--debug-rss", "primes", "1000", "-o", "p.txt"], { cwd: "/tmp" });
 * ```
 */
export async function runBuiltCli(args: readonly string[], options: RunOptions): Promise<CliRun> {
  built ??= runScript("scripts/build.ts", [], { cwd: ROOT }).then((run) => {
    if (run.code !== 0) throw new Error(`Cannot build the package: ${run.stderr}`);
  });
  await built;
  return runScript("dist/cli/main.js", args, options);
}

let built: Promise<void> | undefined;

/** Runs the project's script at `script` (relative to the project root) like {@linkcode runCli} runs the command. */
export function runScript(script: string, args: readonly string[], options: RunOptions): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (!options.env?.DRAINPIPE_URL) delete env.DRAINPIPE_URL;
  if (!options.env?.DRAINPIPE_TOKEN) delete env.DRAINPIPE_TOKEN;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [resolve(ROOT, script), ...args], {
      cwd: options.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    options.onStart?.(child);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolvePromise({
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** The peak RSS in MiB that `--debug-rss` printed on stderr. */
export function peakRssMiB(run: CliRun): number {
  const match = /maxRSS (\d+) KiB/.exec(run.stderr);
  if (!match) throw new Error(`Cannot find the peak RSS: stderr was ${JSON.stringify(run.stderr)}`);
  return Number(match[1]) / 1024;
}
