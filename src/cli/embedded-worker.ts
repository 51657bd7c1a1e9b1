/**
 * The drainpipe worker embedded in this process: wrangler's `unstable_dev` runs `src/worker/index.ts` in local
 * workerd (miniflare) with the R2 bucket persisted on disk, by default in the same place `npm start`
 * (`wrangler dev`) keeps it (see `state-dir.ts`), so both see the same files.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { findStateDir } from "./state-dir.ts";

/** The project root (or the installed package's): `src/cli/` and `dist/cli/` are two levels below it. */
export const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/**
 * Whether this is the built CLI (`dist/cli/*.js`, in the published package) rather than the sources run in the
 * project: the built one runs the built worker (`dist/worker/index.js`, with `dist/cli/wrangler.toml`).
 */
export const BUILT = !import.meta.url.endsWith(".ts");

/** The script of the process that hosts the worker. */
const HOST = resolve(import.meta.dirname, BUILT ? "embedded-worker-host.js" : "embedded-worker-host.ts");

/** What the CLI says when the embedded mode cannot find wrangler (an optional peer dependency of the package). */
export const WRANGLER_MISSING =
  "the embedded worker needs wrangler, which is not installed: add it with `npm install --save-dev wrangler`, " +
  "or pass --url (and --token) to use a deployed worker";

/** A running embedded worker. */
export interface EmbeddedWorker {
  /** The directory its state is persisted in (absolute). */
  stateDir: string;
  /** Its origin, e.g. `http://127.0.0.1:41873`. */
  url: string;
  /** The bearer token it was started with (its `API_TOKEN` variable). */
  token: string;
  /** Stops the worker and its workerd process. */
  stop(): Promise<void>;
}

/** Options of {@linkcode startEmbeddedWorker}. */
export interface EmbeddedWorkerOptions {
  /**
   * Where to persist local state; default {@linkcode findStateDir}'s (the nearest `.wrangler/state` upward, where
   * `wrangler dev` keeps it). Relative paths are resolved against the working directory.
   */
  stateDir?: string | undefined;
  /** Variables for the worker beside its `API_TOKEN` (for example a short `LEASE_SECONDS` in tests). */
  vars?: Record<string, string>;
}

/**
 * Turns off wrangler's telemetry and its fetch of request metadata from Cloudflare (both need the network),
 * unless the environment already says otherwise. Call before starting anything with wrangler.
 */
export function quietWrangler(): void {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  process.env.WRANGLER_SEND_METRICS ??= "false";
}

/** How long {@linkcode EmbeddedWorker.stop} waits for the host process before killing it. */
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts the worker in local workerd with R2 persisted under `stateDir` and a random `API_TOKEN`. Takes a few
 * seconds. The worker runs in a host process of its own (`embedded-worker-host.ts`), detached in its own process
 * group: a Ctrl-C in the terminal reaches this process alone, which can then cancel an upload cleanly before it
 * stops the worker; and if this process dies, the host notices its closed stdin and stops too. Wrangler's
 * telemetry and its fetch of request metadata from Cloudflare are turned off unless the environment already
 * says otherwise, since they need the network.
 *
 * @example
 * ```ts
 * const worker = await startEmbeddedWorker();
 * try {
 *   await fetch(`${worker.url}/files`, { headers: { Authorization: `Bearer ${worker.token}` } });
 * } finally {
 *   await worker.stop();
 * }
 * ```
 */
export async function startEmbeddedWorker(options: EmbeddedWorkerOptions = {}): Promise<EmbeddedWorker> {
  quietWrangler();
  if (!wranglerInstalled()) throw new Error(WRANGLER_MISSING);
  const stateDir = resolve(options.stateDir ?? findStateDir());
  mkdirSync(stateDir, { recursive: true });
  const host = spawn(process.execPath, [HOST, JSON.stringify({ stateDir, vars: options.vars })], {
    cwd: scratchDirectory(stateDir),
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Wrangler's messages matter when the worker fails to start; afterwards (a dropped client connection, say)
  // they would only clutter the command's output, and wrangler writes them to its log file anyway.
  let startupMessages = "";
  const collect = (chunk: Buffer): void => {
    startupMessages = (startupMessages + chunk.toString("utf8")).slice(-4000);
  };
  host.stderr?.on("data", collect);
  const exited = new Promise<number | null>((done) => host.once("exit", (code) => done(code)));
  const started = await firstLine(host).catch((error: unknown) => {
    host.kill("SIGKILL");
    const detail = startupMessages.trim();
    throw detail === "" ? error : new Error(`${(error as Error).message}:\n${detail}`, { cause: error });
  });
  host.stderr?.off("data", collect);
  host.stderr?.resume();
  const { url, token } = JSON.parse(started) as { url: string; token: string };
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      host.stdin?.end();
      const timer = setTimeout(() => host.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return { stateDir, url, token, stop };
}

/**
 * Where the host runs, since wrangler writes its scratch files (`.wrangler/tmp`) in its working directory: beside
 * the state, in the directory that holds `.wrangler/state` (a project's root), or in a custom state directory
 * itself, never in the user's working directory.
 */
function scratchDirectory(stateDir: string): string {
  const parent = dirname(stateDir);
  return basename(stateDir) === "state" && basename(parent) === ".wrangler" ? dirname(parent) : stateDir;
}

/** Whether `wrangler` resolves from here (it is an optional peer dependency of the published package). */
function wranglerInstalled(): boolean {
  try {
    import.meta.resolve("wrangler");
    return true;
  } catch {
    return false;
  }
}

/** The first line `host` writes to stdout; rejects when it exits first. */
function firstLine(host: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end < 0) return;
      host.stdout?.off("data", onData);
      host.off("exit", onExit);
      done(text.slice(0, end));
    };
    const onExit = (code: number | null): void => {
      fail(new Error(`the worker's host process exited (code ${code}) before the worker started`));
    };
    host.stdout?.on("data", onData);
    host.once("exit", onExit);
  });
}
