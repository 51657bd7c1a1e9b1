import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The streams implementations the runner can test. */
export const IMPLEMENTATIONS = ["drainpipe", "native"] as const;

/** `drainpipe` is the project's own implementation; `native` is the runtime's built-in one, used as a baseline. */
export type Implementation = (typeof IMPLEMENTATIONS)[number];

/** The interfaces of the Streams Standard that the implementation under test must export and that tests use. */
export const STREAM_CLASS_NAMES = [
  "ReadableStream",
  "ReadableStreamDefaultReader",
  "ReadableStreamBYOBReader",
  "ReadableStreamDefaultController",
  "ReadableByteStreamController",
  "ReadableStreamBYOBRequest",
  "WritableStream",
  "WritableStreamDefaultWriter",
  "WritableStreamDefaultController",
  "TransformStream",
  "TransformStreamDefaultController",
  "ByteLengthQueuingStrategy",
  "CountQueuingStrategy",
] as const;

/** URL of drainpipe's streams entry point, `src/streams/index.ts`. */
export const DRAINPIPE_MODULE_URL = new URL("../../src/streams/index.ts", import.meta.url);

/** Error raised when the implementation asked for cannot be loaded at all. */
export class ImplementationUnavailableError extends Error {
  override readonly name = "ImplementationUnavailableError";
}

/**
 * Returns the module URL that file workers import to get the implementation's classes, or `null` for `native`, whose
 * classes are already the worker's globals. Throws {@link ImplementationUnavailableError} when drainpipe's entry point
 * does not exist yet.
 *
 * @example
 * ```ts
 * implementationModuleUrl("native"); // null
 * implementationModuleUrl("drainpipe"); // "file:///.../src/streams/index.ts"
 * ```
 */
export function implementationModuleUrl(implementation: Implementation): string | null {
  if (implementation === "native") {
    return null;
  }
  const modulePath = fileURLToPath(DRAINPIPE_MODULE_URL);
  if (!existsSync(modulePath)) {
    throw new ImplementationUnavailableError(
      `Cannot test drainpipe: its streams entry point ${modulePath} does not exist yet (run with --impl native for the baseline)`,
    );
  }
  return pathToFileURL(modulePath).href;
}
