/**
 * Feature detection for drainpipe's non-standard extensions. Code that may run against either drainpipe or a
 * platform's own streams checks these flags (or `typeof reader.readMany === "function"`) before relying on them.
 * @module
 */

/** The non-standard extensions this implementation provides. */
export interface StreamExtensions {
  /** `ReadableStreamDefaultReader.prototype.readMany(options)`: a draining read (`engine/fast-paths/read-many.ts`). */
  readonly readMany: boolean;
  /** Underlying sinks may define `writev(chunks, controller)` for coalesced writes (see `writev.ts`). */
  readonly writev: boolean;
  /** `pipeTo` moves batches without a promise per chunk (see `pipe-batches.ts`); no API change. */
  readonly pipeBatches: boolean;
  /**
   * `ReadableStream.prototype[Symbol.for("Stream.toAsyncStreamable")]()`: the stream as the iterable-streams API's
   * async iterable of `Uint8Array[]` batches, one draining read per batch (see `engine/batch-iterator.ts`).
   */
  readonly toAsyncStreamable: boolean;
}

/**
 * The extensions drainpipe's streams support.
 * @example
 * ```ts
 * declare const reader: ReadableStreamDefaultReader<string>;
 * let chunks: string[];
 * if (streamExtensions.readMany) {
 *   chunks = (await reader.readMany()).chunks;
 * } else {
 *   const { value, done } = await reader.read();
 *   chunks = done ? [] : [value];
 * }
 * ```
 */
export const streamExtensions: StreamExtensions = Object.freeze({
  readMany: true,
  writev: true,
  pipeBatches: true,
  toAsyncStreamable: true,
});
