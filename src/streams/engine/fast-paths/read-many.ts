/**
 * drainpipe extension (non-standard): the algorithm of `ReadableStreamDefaultReader.prototype.readMany(options)`,
 * a draining read. The method itself is declared on the class (`readable-stream-default-reader.ts`); this module
 * changes no other module's objects when imported.
 *
 * One call resolves with every chunk that is available without waiting: the chunks already queued, plus, for a
 * stream built from an underlying source with a `pull` method, whatever further calls to `pull` enqueue as long as
 * `pull` completes synchronously and adds data. Soft caps (`maxChunks`, `maxBytes`) make the caller yield
 * periodically. When nothing is available it waits for the first chunk like `read()`, then drains.
 *
 * Feature detection: `typeof reader.readMany === "function"`.
 *
 * Chunks queued in a default controller are moved in ranges where that is equivalent to reading them one at a
 * time (see `bulkDequeueCount`): one copy out of the queue and one after-dequeue step per range.
 * @module
 */

import {
  Deferred,
  promiseRejectedWith,
  promiseResolvedWith,
  queueMicrotaskInternal,
} from "../../base/promise-helpers.ts";
import { assertDictionary, convertEnforceRangeUnsignedLongLong } from "../../standard/webidl.ts";
import {
  type ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderRead,
  type ReadRequest,
} from "../readable-stream-default-reader.ts";
import { ChunkCollector, drainSynchronously } from "./synchronous-drain.ts";

/** Options of `readMany`. */
export interface ReadManyOptions {
  /** Soft cap on the number of chunks in one result (default {@link DEFAULT_MAX_CHUNKS}). */
  maxChunks?: number;
  /** Soft cap on the summed `byteLength` (or string length) of the chunks (default {@link DEFAULT_MAX_BYTES}). */
  maxBytes?: number;
}

/** The result of `readMany`: the chunks read, and whether the stream has closed (no more chunks will come). */
export interface ReadManyResult<R> {
  /** Chunks in stream order; empty only when `done` is true. */
  chunks: R[];
  /** True once the stream has closed. */
  done: boolean;
}

/** Default soft cap on chunks per `readMany` result. */
export const DEFAULT_MAX_CHUNKS = 65_536;
/** Default soft cap on bytes per `readMany` result (4 MiB). */
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

function toResult<R>(collector: ChunkCollector<R>): ReadManyResult<R> {
  return { chunks: collector.chunks, done: collector.closed };
}

class WaitingReadMany<R> implements ReadRequest<R> {
  readonly deferred = new Deferred<ReadManyResult<R>>();
  private readonly reader: ReadableStreamDefaultReader<R>;
  private readonly collector: ChunkCollector<R>;

  constructor(reader: ReadableStreamDefaultReader<R>, maxChunks: number, maxBytes: number) {
    this.reader = reader;
    this.collector = new ChunkCollector<R>(maxChunks, maxBytes);
  }

  chunkSteps(chunk: R): void {
    this.collector.chunkSteps(chunk);
    queueMicrotaskInternal(() => {
      if (this.reader._ownerReadableStream !== undefined && this.reader._ownerReadableStream._state !== "errored") {
        drainSynchronously(this.reader, this.collector);
      }
      this.deferred.resolve(toResult(this.collector));
    });
  }

  closeSteps(): void {
    this.deferred.resolve({ chunks: this.collector.chunks, done: true });
  }

  errorSteps(error: unknown): void {
    this.deferred.reject(error);
  }
}

function convertLimit(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const limit = convertEnforceRangeUnsignedLongLong(value, `options.${name}`);
  if (limit === 0) throw new RangeError(`Cannot read: options.${name} must be at least 1, got 0`);
  return limit;
}

/**
 * The algorithm behind `ReadableStreamDefaultReader.prototype.readMany` (the method checks the receiver's brand,
 * then calls this): reads every chunk available without waiting (see the module description). Resolves with
 * `{ chunks, done }`; rejects like `read()` when the stream errors before any chunk was collected.
 */
export function readableStreamDefaultReaderReadMany<R>(
  reader: ReadableStreamDefaultReader<R>,
  options: ReadManyOptions | undefined,
): Promise<ReadManyResult<R>> {
  let maxChunks: number;
  let maxBytes: number;
  try {
    assertDictionary(options, "First parameter");
    const dict = options as ReadManyOptions | null | undefined;
    maxBytes = convertLimit(dict?.maxBytes, DEFAULT_MAX_BYTES, "maxBytes");
    maxChunks = convertLimit(dict?.maxChunks, DEFAULT_MAX_CHUNKS, "maxChunks");
  } catch (error) {
    return promiseRejectedWith(error);
  }
  const stream = reader._ownerReadableStream;
  if (stream === undefined)
    return promiseRejectedWith(new TypeError("Cannot read from a stream using a released reader"));
  const collector = new ChunkCollector<R>(maxChunks, maxBytes);
  drainSynchronously(reader, collector);
  if (collector.chunks.length > 0) {
    return promiseResolvedWith(toResult(collector));
  }
  if (collector.errored) return promiseRejectedWith(collector.error);
  if (collector.closed || stream._state === "closed")
    return promiseResolvedWith<ReadManyResult<R>>({ chunks: [], done: true });
  const waiting = new WaitingReadMany<R>(reader, maxChunks, maxBytes);
  ReadableStreamDefaultReaderRead(reader, waiting);
  return waiting.deferred.promise;
}
