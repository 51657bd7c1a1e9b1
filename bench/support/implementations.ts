/**
 * The WHATWG Streams implementations the stream benchmarks (scenarios 1, 2 and 8) compare, in one table.
 *
 * Adding drainpipe (`src/streams/`) is one line per path (plus its import). The standard path runs the same code
 * as every other implementation; the extension path adds the shapes that use its draining read
 * (`reader.readMany()`) and sinks with `writev(chunks)`:
 *
 * ```ts
 * import * as drainpipe from "../../src/streams/index.ts";
 * { name: "drainpipe", runtimes: ["node", "workerd"], ...classesOf(drainpipe) },
 * {
 *   name: "drainpipe readMany/writev",
 *   runtimes: ["node", "workerd"],
 *   ...classesOf(drainpipe),
 *   extension: {
 *     readMany: async (reader) => {
 *       const drainpipeReader = reader as unknown as drainpipe.ReadableStreamDefaultReader<unknown>;
 *       const { chunks, done } = await drainpipeReader.readMany();
 *       return { done, value: chunks };
 *     },
 *   },
 * },
 * ```
 *
 * Every report then shows both rows next to native, with no other change.
 *
 * @module
 */
import { FastReadableStream, FastTransformStream, FastWritableStream } from "experimental-fast-webstreams";
import * as polyfill from "web-streams-polyfill";
import * as drainpipe from "../../src/streams/index.ts";

/** Where a benchmark runs. */
export type Runtime = "node" | "workerd";

/**
 * The draining extension, for implementations that offer it: a draining read, and sinks that may define
 * `writev(chunks, controller)` to take every queued chunk in one call. The shapes that use it are added only
 * for implementations that have this.
 */
export interface DrainingExtension {
  /** Every chunk queued in `reader`'s stream at once (waiting for at least one), or `done` at the end. */
  readMany(reader: ReadableStreamDefaultReader<unknown>): Promise<{ done: boolean; value: unknown[] }>;
}

/** The stream classes of one implementation. */
export interface StreamClasses {
  /** Its `ReadableStream`. */
  ReadableStream: typeof ReadableStream;
  /** Its `WritableStream`. */
  WritableStream: typeof WritableStream;
  /** Its `TransformStream`. */
  TransformStream: typeof TransformStream;
}

/** One row of the table: a named implementation, where it runs, and its optional extension path. */
export interface StreamsImplementation extends StreamClasses {
  /** The name the reports use. */
  name: string;
  /** The runtimes it is benchmarked in. */
  runtimes: readonly Runtime[];
  /** Its draining extension, when the row measures the extension path. */
  extension?: DrainingExtension;
}

/**
 * The stream classes a module exports under the standard names (as drainpipe's and the polyfill's do).
 *
 * @example
 * ```ts
 * classesOf(await import("web-streams-polyfill"));
 * ```
 */
export function classesOf(module: {
  ReadableStream: unknown;
  WritableStream: unknown;
  TransformStream: unknown;
}): StreamClasses {
  return {
    ReadableStream: module.ReadableStream as typeof ReadableStream,
    WritableStream: module.WritableStream as typeof WritableStream,
    TransformStream: module.TransformStream as typeof TransformStream,
  };
}

/** The name of the runtime's own streams in every report. */
export const NATIVE = "native";

/** Every implementation, the runtime's native streams first (the baseline of every ratio). */
export const IMPLEMENTATIONS: readonly StreamsImplementation[] = [
  { name: NATIVE, runtimes: ["node", "workerd"], ...classesOf(globalThis) },
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
  { name: "drainpipe", runtimes: ["node", "workerd"], ...classesOf(drainpipe) },
  {
    name: "drainpipe readMany/writev",
    runtimes: ["node", "workerd"],
    ...classesOf(drainpipe),
    extension: {
      readMany: async (reader) => {
        const { chunks, done } = await (reader as unknown as drainpipe.ReadableStreamDefaultReader<unknown>).readMany();
        return { done, value: chunks };
      },
    },
  },
];

/** The runtime this code runs in. */
export function currentRuntime(): Runtime {
  return typeof navigator !== "undefined" && navigator.userAgent === "Cloudflare-Workers" ? "workerd" : "node";
}

/** The implementations benchmarked in `runtime`. */
export function implementationsFor(runtime: Runtime = currentRuntime()): StreamsImplementation[] {
  return IMPLEMENTATIONS.filter((implementation) => implementation.runtimes.includes(runtime));
}
