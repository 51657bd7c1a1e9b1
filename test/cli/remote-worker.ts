import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { type CliRun, type RunOptions, runCli } from "./cli-runner.ts";

/** One worker in local workerd for a test file, which the CLI reaches with `--url` and `--token`. */
export interface RemoteWorker {
  /** The running worker (set once the file's `beforeAll` ran). */
  readonly worker: EmbeddedWorker;
  /** A temporary directory for the file's inputs (the worker's state is under `state/`). */
  readonly directory: string;
  /** Runs the CLI in `directory` with `args` and the worker's `--url` and `--token`. */
  remote(args: readonly string[], options?: Omit<RunOptions, "cwd">): Promise<CliRun>;
}

/**
 * Starts a worker before the test file's tests and stops it (and removes its directory) after them; `vars`
 * override the worker's settings (`{ PLAN: "free" }`, say).
 *
 * @example
 * ```ts
 * const fixture = useRemoteWorker("drainpipe-cli-");
 * // in a test: const run = await fixture.remote(["ls", "--json"]);
 * ```
 */
export function useRemoteWorker(prefix: string, vars: Record<string, string> = {}): RemoteWorker {
  let worker: EmbeddedWorker | undefined;
  let directory: string | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), prefix));
    worker = await startEmbeddedWorker({ stateDir: join(directory, "state"), vars });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  const started = () => {
    if (!worker || !directory) throw new Error("Cannot use the remote worker before the file's beforeAll ran");
    return { worker, directory };
  };
  return {
    get worker() {
      return started().worker;
    },
    get directory() {
      return started().directory;
    },
    remote: (args, options = {}) => {
      const { worker: running, directory: cwd } = started();
      return runCli([...args, "--url", running.url, "--token", running.token], { ...options, cwd });
    },
  };
}
