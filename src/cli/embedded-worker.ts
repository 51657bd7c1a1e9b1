/**
 * The drainpipe worker embedded in this process: wrangler's `unstable_dev` runs `src/worker/index.ts` in local
 * workerd (miniflare) with the R2 bucket persisted on disk, in the same place `npm start` (`wrangler dev`)
 * keeps it, so both see the same files.
 *
 * @module
 */
import { resolve } from "node:path";
import { randomToken } from "./random-token.ts";

/** The project root: `src/cli/` is two levels below it. */
const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/** Where `wrangler dev` persists local state (R2 included) by default, and where the embedded worker does too. */
const DEFAULT_STATE_DIR = resolve(PROJECT_ROOT, ".wrangler/state");

/** A running embedded worker. */
export interface EmbeddedWorker {
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
   * Where to persist local state; default `.wrangler/state` in the project root, where `wrangler dev` keeps it.
   * Relative paths are resolved against the working directory.
   */
  stateDir?: string;
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

/**
 * Starts the worker in local workerd with R2 persisted under `stateDir` and a random `API_TOKEN`. Takes a few
 * seconds. Wrangler's telemetry and its fetch of request metadata from Cloudflare are turned off unless the
 * environment already says otherwise, since they need the network.
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
  const { unstable_dev } = await import("wrangler");
  const stateDir = resolve(options.stateDir ?? DEFAULT_STATE_DIR);
  const token = randomToken();
  const worker = await unstable_dev(resolve(PROJECT_ROOT, "src/worker/index.ts"), {
    config: resolve(PROJECT_ROOT, "wrangler.toml"),
    persistTo: stateDir,
    logLevel: "warn",
    vars: { ...options.vars, API_TOKEN: token },
    experimental: { disableExperimentalWarning: true },
  });
  return { url: `http://${worker.address}:${worker.port}`, token, stop: () => worker.stop() };
}
