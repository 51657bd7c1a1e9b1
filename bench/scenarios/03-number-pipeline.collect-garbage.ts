/**
 * A full garbage collection on demand, so that a timed run does not pay for collecting what the runs before it
 * left behind (in scenario 3 each run leaves about twice the input size in parts and their joined copy, and the
 * native-streams run millions of promises).
 *
 * V8 offers `gc()` only with `--expose-gc`; the flag is set here at run time and the function taken from a fresh
 * context, so the benchmarks need no command-line flag.
 *
 * @module
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (() => void) | undefined;

/**
 * Runs a full, synchronous garbage collection where the runtime allows it (V8); does nothing elsewhere.
 *
 * @example
 * ```ts
 * collectGarbage();
 * const { ms } = await timed(() => work());
 * ```
 */
export function collectGarbage(): void {
  gc?.();
}
