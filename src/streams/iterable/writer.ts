/**
 * The writer of the iterable-streams API, as drainpipe's {@link toWriter} implements it.
 * @module
 */

import "../platform-types.ts";
import { drainableProtocol } from "../engine/iterable-protocols.ts";

/** Options of a writer's asynchronous methods. */
export interface WriterOptions {
  /** Stops waiting for room (the promise rejects with the signal's reason); chunks already accepted stay. */
  signal?: AbortSignal;
}

/** A chunk a writer takes: bytes, or a string written UTF-8 encoded. */
export type WriterChunk = Uint8Array | ArrayBuffer | ArrayBufferView | string;

/**
 * A writer of the iterable-streams API (what `pipeTo(source, writer)` of `node:stream/iter` writes into): each
 * method accepts chunks into the writer's queue; the `*Sync` forms accept only where the queue has room now.
 */
export interface Writer {
  /** Room left in the queue (the stream's `desiredSize`); `null` once the writer has ended or failed. */
  readonly desiredSize: number | null;
  /** Whether the queue has room now; `null` once the writer has ended or failed. */
  readonly canWrite: boolean | null;
  /** Accepts one chunk; resolves once it is queued (at once when there was room). */
  write(chunk: WriterChunk, options?: WriterOptions): Promise<void>;
  /** Accepts a batch of chunks; resolves once all are queued. */
  writev(chunks: readonly WriterChunk[], options?: WriterOptions): Promise<void>;
  /** Accepts one chunk if the queue has room for it now; says whether it did. */
  writeSync(chunk: WriterChunk): boolean;
  /** Accepts the whole batch if the queue has room for all of it now; says whether it did. */
  writevSync(chunks: readonly WriterChunk[]): boolean;
  /** Closes the stream once every accepted chunk is written; resolves with the number of bytes written. */
  end(options?: WriterOptions): Promise<number>;
  /** The bytes written once the writer has ended, else -1 (a web stream never closes synchronously). */
  endSync(): number;
  /** Aborts the stream with `reason`; later writes reject with it. */
  fail(reason?: unknown): void;
  /** `null` once ended or failed; else a promise for `true` when the queue has room, `false` if it ends first. */
  [drainableProtocol](): Promise<boolean> | null;
}
