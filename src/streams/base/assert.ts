/**
 * Debug assertions: checks of drainpipe's own invariants (a fast path's cached condition still holds), which run
 * wherever the sources run (the test suite, the web-platform-tests runner) and are absent from the package.
 *
 * Every call is a statement labelled {@link ASSERTION_LABEL}:
 *
 * ```ts
 * DEBUG: debugAssert(controller._queue.length > 0, "_appendOnly is set on an empty queue");
 * ```
 *
 * A labelled statement runs like any other, so the sources check the invariant; `npm run build` and the
 * benchmarks' bundles pass the label to esbuild's `dropLabels`, which removes the statement whole, so `dist/`
 * neither calls this module nor evaluates the condition.
 *
 * @module
 */

/** The label of every assertion statement; the package build drops the statements that carry it. */
export const ASSERTION_LABEL = "DEBUG";

/** An internal invariant of drainpipe does not hold: a bug in drainpipe, never the caller's mistake. */
export class DebugAssertionError extends Error {
  override name = "DebugAssertionError";
}

/**
 * Throws a {@link DebugAssertionError} saying `message` unless `condition` holds.
 *
 * @throws {DebugAssertionError} "drainpipe invariant broken: <message>" when `condition` is false.
 * @example
 * ```ts
 * debugAssert([1].length > 0, "the queue is empty"); // undefined
 * debugAssert([].length > 0, "empty queue"); // throws DebugAssertionError "drainpipe invariant broken: empty queue"
 * ```
 */
export function debugAssert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new DebugAssertionError(`drainpipe invariant broken: ${message}`);
}
