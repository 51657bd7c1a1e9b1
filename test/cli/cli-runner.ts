/**
 * Runs the `drainpipe` command (and the project's other scripts) as a user would: a child process of the
 * project's Node running `src/cli/main.ts`, in a working directory of the test's choosing.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { delimiter, resolve } from "node:path";

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
  /** Whether the child's stdin is a pipe (`child.stdin`, for `onStart` to write to) rather than empty. */
  stdin?: boolean;
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
 * Runs `drainpipe ...args` in `cwd` with a clean environment (no `DRAINPIPE_URL`, `DRAINPIPE_TOKEN` or
 * `npm_command` unless `env` sets them) and collects its output.
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
  return collect(
    spawn(NODE, [resolve(ROOT, script), ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"],
    }),
    options,
  );
}

/**
 * Runs a command line as a user pastes it into a POSIX shell (`sh -c`), with the project's `node_modules/.bin`
 * first on the `PATH` (so `node` is the project's Node) and the environment of {@linkcode runCli}.
 *
 * @example
 * ```ts
 * const run = await runShell("node src/cli/main.ts ls --json", { cwd: "/tmp" });
 * ```
 */
export function runShell(command: string, options: RunOptions): Promise<CliRun> {
  const env = shellEnv(options.env);
  return collect(spawn("sh", ["-c", command], { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] }), options);
}

/**
 * This process's environment with `extra`, without `DRAINPIPE_URL`, `DRAINPIPE_TOKEN` or `npm_command` (which
 * `npx vitest` sets) unless `extra` sets them.
 */
export function cleanEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ["DRAINPIPE_URL", "DRAINPIPE_TOKEN", "npm_command"]) if (!extra?.[name]) delete env[name];
  return env;
}

/** {@linkcode cleanEnv} with the project's `node_modules/.bin` first on the `PATH`, for commands run by a shell. */
export function shellEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  env.PATH = `${resolve(ROOT, "node_modules/.bin")}${delimiter}${env.PATH ?? ""}`;
  return env;
}

/** The command that runs the CLI's sources, for a shell: `node <project>/src/cli/main.ts`. */
export const CLI_COMMAND = `node ${resolve(ROOT, "src/cli/main.ts")}`;

/** Collects the output of `child` until it exits. */
function collect(child: ChildProcess, options: RunOptions): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    options.onStart?.(child);
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
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
