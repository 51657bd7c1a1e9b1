import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isRunnableInWorkerLikeGlobal, parseMetaDirectives } from "./meta-directives.ts";

/** A WPT test file this runner will execute, with its META includes resolved to absolute paths. */
export interface RunnableTestFile {
  /** Path relative to the WPT root, with forward slashes, e.g. `streams/piping/abort.any.js`. */
  readonly name: string;
  readonly absolutePath: string;
  /** Absolute paths of the `META: script=` includes, in the order they must be evaluated. */
  readonly scripts: readonly string[];
  readonly longTimeout: boolean;
  readonly title: string | undefined;
}

/** A WPT test file that matched the selection but that this runner does not execute, and why. */
export interface SkippedTestFile {
  readonly name: string;
  readonly reason: string;
}

/** The outcome of {@link discoverTestFiles}. */
export interface DiscoveredTestFiles {
  readonly runnable: readonly RunnableTestFile[];
  readonly skipped: readonly SkippedTestFile[];
}

/**
 * Scripts that the WPT server serves under a name other than their path in the checkout.
 * `/resources/WebIDLParser.js` is generated from the webidl2 package that WPT vendors.
 */
const SERVED_ALIASES: ReadonlyMap<string, string> = new Map([
  ["/resources/WebIDLParser.js", "resources/webidl2/lib/webidl2.js"],
]);

/**
 * Resolves a `META: script=` value the way the WPT server would: a path starting with `/` is relative to the WPT
 * root, anything else is relative to the directory of the test file.
 *
 * @example
 * ```ts
 * resolveInclude("/wpt", "/wpt/streams/piping/abort.any.js", "../resources/test-utils.js");
 * // "/wpt/streams/resources/test-utils.js"
 * ```
 */
export function resolveInclude(wptDir: string, testFile: string, include: string): string {
  const alias = SERVED_ALIASES.get(include);
  if (alias !== undefined) {
    return path.join(wptDir, alias);
  }
  if (include.startsWith("/")) {
    return path.join(wptDir, include);
  }
  return path.resolve(path.dirname(testFile), include);
}

function listAnyJsFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      found.push(...listAnyJsFiles(entryPath));
    } else if (entry.isFile() && entry.name.endsWith(".any.js")) {
      found.push(entryPath);
    }
  }
  return found;
}

/**
 * Finds every `streams/**\/*.any.js` file of the WPT checkout at `wptDir` whose name contains `filter` (all of them
 * when `filter` is empty), reads its META header and sorts it into files to run and files to skip.
 *
 * @example
 * ```ts
 * const { runnable, skipped } = discoverTestFiles("/path/to/wpt", "piping/");
 * ```
 */
export function discoverTestFiles(wptDir: string, filter: string): DiscoveredTestFiles {
  const streamsDir = path.join(wptDir, "streams");
  if (!existsSync(streamsDir)) {
    throw new Error(`Cannot find the streams tests: ${streamsDir} does not exist (is WPT_DIR a WPT checkout?)`);
  }
  const runnable: RunnableTestFile[] = [];
  const skipped: SkippedTestFile[] = [];
  for (const absolutePath of listAnyJsFiles(streamsDir).sort()) {
    const name = path.relative(wptDir, absolutePath).split(path.sep).join("/");
    if (!name.includes(filter)) {
      continue;
    }
    const meta = parseMetaDirectives(readFileSync(absolutePath, "utf8"));
    if (!isRunnableInWorkerLikeGlobal(meta.globals)) {
      skipped.push({ name, reason: `meant only for global scopes ${meta.globals.join(", ")}` });
      continue;
    }
    const scripts = meta.scripts.map((include) => resolveInclude(wptDir, absolutePath, include));
    const missing = scripts.filter((script) => !existsSync(script));
    if (missing.length > 0) {
      skipped.push({ name, reason: `META script not in the checkout: ${missing.join(", ")}` });
      continue;
    }
    runnable.push({ name, absolutePath, scripts, longTimeout: meta.longTimeout, title: meta.title });
  }
  return { runnable, skipped };
}
