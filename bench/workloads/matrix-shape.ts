/**
 * What one shape of scenario 10's matrix is: a row whose work runs as standard stream code against an
 * implementation's classes, and for some shapes also with drainpipe's batch API and with `node:stream/iter`. The
 * shapes themselves are in `matrix-shapes.ts` and `matrix-host-crossings.ts`.
 *
 * @module
 */
import type { StreamClasses, StreamsImplementation } from "../implementations/streams-implementation.ts";
import type { Tally } from "./matrix-chunks.ts";

/** A transform of `node:stream/iter`: a batch in, a batch out (`null` at the end). */
export type IterTransform = (batch: Uint8Array[] | null) => Uint8Array[] | null;

/** The part of Node 26's `node:stream/iter` (behind `--experimental-stream-iter`) the matrix uses. */
export interface StreamIter {
  /** A stream of the chunks of an iterable, in batches. */
  from(source: Iterable<Uint8Array>): AsyncIterable<Uint8Array[]>;
  /** `source` through `transforms`, pulled by whoever iterates the result. */
  pull(source: AsyncIterable<Uint8Array[]>, ...transforms: IterTransform[]): AsyncIterable<Uint8Array[]>;
  /** A writer and the stream it feeds, the writer's `write` waiting under backpressure. */
  push(): {
    writer: { write(chunk: Uint8Array): Promise<unknown>; end(): unknown };
    readable: AsyncIterable<Uint8Array[]>;
  };
}

/** One shape of the matrix. */
export interface MatrixShape {
  /** The row's name in the reports. */
  name: string;
  /** Chunks one run moves at `count` (what chunks/s counts). */
  chunks(count: number): number;
  /** The tally every run at `count` must return. */
  expected(count: number): Tally;
  /** Whether `streams` has what the shape needs (a missing feature is a "–", not a failure). */
  supported?(streams: StreamClasses): Promise<boolean>;
  /** The shape as standard code against `streams`' classes. */
  standard(streams: StreamClasses, count: number): Promise<Tally>;
  /** The same work with drainpipe's batch API (`implementation.extension`, sinks with `writev`). */
  batch?(implementation: StreamsImplementation, count: number): Promise<Tally>;
  /** The same work with `node:stream/iter`. */
  iter?(api: StreamIter, count: number): Promise<Tally>;
}
