/**
 * Node 26, for the tests and benchmarks that measure `node:stream/iter` (behind `--experimental-stream-iter`).
 *
 * The root `package.json` cannot hold a second `node` package (both would link `node_modules/.bin/node`), so Node 26
 * is a project of its own, `scripts/node26/`, pinned by its lockfile and installed from the registry on first use
 * into `scripts/node26/node_modules`. Concurrent callers (vitest runs test files in parallel) wait for one install.
 *
 * Usage: `const node = ensureNode26();` then spawn `node`; or `node scripts/node26.ts` to install it and print
 * the path.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const PROJECT = resolve(import.meta.dirname, "node26");
const BINARY = join(PROJECT, "node_modules", "node", "bin", "node");
const LOCK = join(PROJECT, ".installing");
/** A lock older than this belongs to an install that died; the next caller takes over. */
const STALE_LOCK_MS = 10 * 60_000;

/** The flag that enables `node:stream/iter` in Node 26. */
export const STREAM_ITER_FLAG = "--experimental-stream-iter";

/**
 * Installs Node 26 if it is missing and returns the path of its `node` binary.
 *
 * @throws {Error} "Cannot install Node 26: …" when `npm ci` fails (no registry, no disk), with the npm error as cause.
 */
export function ensureNode26(): string {
  while (!existsSync(BINARY)) {
    if (takeLock()) {
      try {
        if (!existsSync(BINARY)) install();
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
    } else {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  return BINARY;
}

function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    const lock = statSync(LOCK, { throwIfNoEntry: false });
    if (lock && Date.now() - lock.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function install(): void {
  try {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: PROJECT, stdio: "pipe" });
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`Cannot install Node 26: npm ci in ${PROJECT} failed${output ? `: ${output}` : ""}`, {
      cause: error,
    });
  }
  if (!existsSync(BINARY)) throw new Error(`Cannot install Node 26: npm ci left no binary at ${BINARY}`);
}

if (import.meta.main) console.log(ensureNode26());
