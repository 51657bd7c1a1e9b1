/**
 * The embedded worker `drainpipe dev` keeps running: it records where it listens in its state directory
 * (`drainpipe-dev.json`, readable by its owner only), and every other command in embedded mode on the same state
 * directory attaches to it instead of starting a worker of its own (a few seconds each).
 *
 * @module
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Where a running `drainpipe dev` can be reached. */
export interface DevWorker {
  /** The worker's origin. */
  url: string;
  /** Its bearer token. */
  token: string;
  /** The process id of `drainpipe dev`. */
  pid: number;
}

/** The record's file name inside the state directory. */
const RECORD = "drainpipe-dev.json";

/**
 * Records `worker` in `stateDir` for other commands to find.
 *
 * @example
 * ```ts
 * declare const stateDir: string;
 * await recordDevWorker(stateDir, { url: "http://127.0.0.1:41873", token: "t", pid: process.pid });
 * ```
 */
export async function recordDevWorker(stateDir: string, worker: DevWorker): Promise<void> {
  await writeFile(join(stateDir, RECORD), `${JSON.stringify(worker)}\n`, { mode: 0o600 });
}

/**
 * Removes the record of `stateDir`'s `drainpipe dev`.
 *
 * @example
 * ```ts
 * declare const stateDir: string;
 * await forgetDevWorker(stateDir);
 * ```
 */
export async function forgetDevWorker(stateDir: string): Promise<void> {
  await rm(join(stateDir, RECORD), { force: true });
}

/**
 * The `drainpipe dev` of `stateDir` when one runs and answers; a record left by one that died is removed.
 *
 * @example
 * ```ts
 * declare const stateDir: string;
 * const dev = await runningDevWorker(stateDir);
 * if (dev) console.log(`attach to ${dev.url}`);
 * ```
 */
export async function runningDevWorker(stateDir: string): Promise<DevWorker | undefined> {
  let worker: DevWorker;
  try {
    worker = JSON.parse(await readFile(join(stateDir, RECORD), "utf8")) as DevWorker;
  } catch {
    return undefined;
  }
  if (isAlive(worker.pid) && (await answers(worker))) return worker;
  await forgetDevWorker(stateDir);
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the worker answers an authenticated request (a reused process id would not). */
async function answers(worker: DevWorker): Promise<boolean> {
  try {
    const response = await fetch(new URL("files", worker.url), {
      headers: { Authorization: `Bearer ${worker.token}` },
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
