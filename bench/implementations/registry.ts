/**
 * The WHATWG Streams implementations the stream benchmarks (scenarios 1, 2 and 8) compare, in one table (what a
 * row is: `streams-implementation.ts`).
 *
 * drainpipe has two rows (`drainpipeImplementations`): the standard path runs the same code as every other
 * implementation; the extension path adds the shapes that use its draining read (`reader.readMany()`) and sinks
 * with `writev(chunks)`. Every report shows both next to native. Under `vitest bench`, this module's import of
 * `src/streams/index.ts` resolves to drainpipe's esbuild bundle (`tools/bundled-drainpipe.ts`); in Bun and Deno,
 * scenario 1's standalone runner (`bench/scenarios/01-chunk-pipes.runtimes.ts`) builds the same rows on that
 * bundle itself.
 *
 * @module
 */
import { FastReadableStream, FastTransformStream, FastWritableStream } from "experimental-fast-webstreams";
import * as polyfill from "web-streams-polyfill";
import * as drainpipe from "../../src/streams/index.ts";
import {
  classesOf,
  currentRuntime,
  drainpipeImplementations,
  NATIVE,
  type Runtime,
  type StreamsImplementation,
} from "./streams-implementation.ts";

/** Every implementation, the runtime's native streams first (the baseline of every ratio). */
export const IMPLEMENTATIONS: readonly StreamsImplementation[] = [
  { name: NATIVE, runtimes: ["node", "workerd", "bun", "deno"], ...classesOf(globalThis) },
  { name: "web-streams-polyfill", runtimes: ["node", "workerd"], ...classesOf(polyfill) },
  {
    name: "experimental-fast-webstreams",
    runtimes: ["node"],
    ...classesOf({
      ReadableStream: FastReadableStream,
      WritableStream: FastWritableStream,
      TransformStream: FastTransformStream,
    }),
  },
  ...drainpipeImplementations(drainpipe, ["node", "workerd", "bun", "deno"]),
];

/** The implementations benchmarked in `runtime`. */
export function implementationsFor(runtime: Runtime = currentRuntime()): StreamsImplementation[] {
  return IMPLEMENTATIONS.filter((implementation) => implementation.runtimes.includes(runtime));
}
