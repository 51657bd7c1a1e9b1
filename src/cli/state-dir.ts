import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Where `wrangler dev` (`npm start`) persists local state below a project's root, R2 included. */
const STATE_SUBDIR = join(".wrangler", "state");

/**
 * Where the embedded worker keeps its state when `--state-dir` is not given, found the way `git` finds its
 * repository: the nearest `.wrangler/state` directory in `cwd` or a directory above it (so any subdirectory of a
 * project uses the project's store); when there is none, `.wrangler/state` in the nearest directory above with a
 * `package.json` (the project root, where `npm start` creates it), else in `cwd`.
 *
 * @example
 * ```ts
 * // In /home/me/drainpipe/src, once /home/me/drainpipe/.wrangler/state exists: that directory.
 * declare const cwd: string;
 * const stateDir = findStateDir(cwd);
 * ```
 */
export function findStateDir(cwd: string = process.cwd()): string {
  const start = resolve(cwd);
  let projectRoot: string | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, STATE_SUBDIR);
    if (isDirectory(candidate)) return candidate;
    if (projectRoot === undefined && existsSync(join(dir, "package.json"))) projectRoot = dir;
    if (dirname(dir) === dir) break;
  }
  return join(projectRoot ?? start, STATE_SUBDIR);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
