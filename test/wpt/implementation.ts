import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { STREAM_CLASS_NAMES } from "./stream-classes.ts";

export { STREAM_CLASS_NAMES };

/** The streams implementations the runner can test. */
export const IMPLEMENTATIONS = ["drainpipe", "native"] as const;

/** `drainpipe` is the project's own implementation; `native` is the runtime's built-in one, used as a baseline. */
export type Implementation = (typeof IMPLEMENTATIONS)[number];

/** URL of drainpipe's streams entry point, `src/streams/index.ts`: the default module under test. */
export const DRAINPIPE_MODULE_URL = new URL("../../src/streams/index.ts", import.meta.url);

/** Path of drainpipe's streams entry point, `src/streams/index.ts`. */
export const DRAINPIPE_MODULE_PATH = fileURLToPath(DRAINPIPE_MODULE_URL);

/** Error raised when the implementation asked for cannot be loaded at all. */
export class ImplementationUnavailableError extends Error {
  override readonly name = "ImplementationUnavailableError";
}

/** The implementation a suite run will use, as checked by {@link loadImplementation}. */
export interface LoadedImplementation {
  /** The module that file workers import to get the classes, or `null` for `native`, whose classes are built in. */
  readonly moduleUrl: string | null;
  /** Stream classes the module does not export; file workers remove them from the global so tests see them missing. */
  readonly missingExports: readonly string[];
}

/**
 * Checks that an implementation can be tested: for drainpipe, imports its module (`modulePath`, by default
 * `src/streams/index.ts`; a built bundle works too) once and lists the stream classes it does not export.
 * Throws {@link ImplementationUnavailableError} when the entry point does not exist or fails to load, so that a run
 * can say so once instead of failing every file.
 *
 * @example
 * ```ts
 * await loadImplementation("native"); // { moduleUrl: null, missingExports: [] }
 * ```
 */
export async function loadImplementation(
  implementation: Implementation,
  modulePath: string = DRAINPIPE_MODULE_PATH,
): Promise<LoadedImplementation> {
  if (implementation === "native") {
    return { moduleUrl: null, missingExports: [] };
  }
  if (!existsSync(modulePath)) {
    throw new ImplementationUnavailableError(
      `Cannot test drainpipe: its streams entry point ${modulePath} does not exist yet ` +
        "(run with --impl native for the baseline)",
    );
  }
  const moduleUrl = pathToFileURL(modulePath).href;
  let exports: Record<string, unknown>;
  try {
    exports = (await import(moduleUrl)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImplementationUnavailableError(`Cannot test drainpipe: ${modulePath} fails to load: ${reason}`, {
      cause: error,
    });
  }
  return { moduleUrl, missingExports: STREAM_CLASS_NAMES.filter((name) => typeof exports[name] !== "function") };
}
