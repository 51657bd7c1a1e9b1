/**
 * What a streams implementation is to the stream benchmarks (scenarios 1 and 2): its classes, the runtimes it is
 * benchmarked in and its optional draining extension, and drainpipe's two rows, built from whichever copy of
 * drainpipe's streams the caller loaded. The table of every implementation is `registry.ts`.
 *
 * This module imports nothing at run time, so that the standalone runner of scenario 1
 * (`bench/scenarios/01-chunk-pipes.runtimes.ts`) loads it in Bun and Deno without loading the other
 * implementations or drainpipe's sources.
 *
 * @module
 */
import type * as drainpipe from "../../src/streams/index.ts";

/** Where a benchmark runs: Node and workerd under `vitest bench`, Bun and Deno with the standalone runner. */
export type Runtime = "node" | "workerd" | "bun" | "deno";

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

/** The name of drainpipe's standard row: the same code as every other implementation. */
export const DRAINPIPE = "drainpipe";

/** The name of drainpipe's extension row: the shapes that have a `readMany`/`writev` variant. */
export const DRAINPIPE_BATCH = `${DRAINPIPE} readMany/writev`;

/**
 * drainpipe's two rows on `streams` (drainpipe's streams module: `src/streams/index.ts`, its esbuild bundle or the
 * built `dist/`): the standard path, which runs the same code as every other implementation, and the extension
 * path, which adds the shapes that use its draining read (`reader.readMany()`) and sinks with `writev(chunks)`.
 *
 * @example
 * ```ts
 * drainpipeImplementations(await import("../.cache/drainpipe-streams.js"), ["bun"]);
 * ```
 */
export function drainpipeImplementations(
  streams: typeof drainpipe,
  runtimes: readonly Runtime[],
): StreamsImplementation[] {
  return [
    { name: DRAINPIPE, runtimes, ...classesOf(streams) },
    {
      name: DRAINPIPE_BATCH,
      runtimes,
      ...classesOf(streams),
      extension: {
        readMany: async (reader) => {
          const { chunks, done } = await (
            reader as unknown as drainpipe.ReadableStreamDefaultReader<unknown>
          ).readMany();
          return { done, value: chunks };
        },
      },
    },
  ];
}

/** The runtime this code runs in (Node unless it is workerd, Bun or Deno). */
export function currentRuntime(): Runtime {
  const agent = typeof navigator === "undefined" ? "" : navigator.userAgent;
  if (agent === "Cloudflare-Workers") return "workerd";
  if (agent.startsWith("Bun/")) return "bun";
  if (agent.startsWith("Deno/")) return "deno";
  return "node";
}
