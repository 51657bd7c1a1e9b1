/**
 * Byte streams built from a "fill this view" source, handing default readers chunks of a chosen size.
 * @module
 */

import type { ReadableByteStreamController } from "../engine/readable-byte-stream-controller.ts";
import { ReadableStream } from "../engine/readable-stream.ts";
import type { ReadableStreamBYOBRequest } from "../engine/readable-stream-byob-request.ts";
import type { BufferPool } from "./buffer-pool.ts";

/**
 * Default chunk size of {@link sizedByteStream}: 1 MiB. Reading 100 MiB request bodies in workerd
 * (bench/experiments/ingest-chunk-size.ts), 1 MiB took a quarter of the reads of 256 KiB and a sixteenth of those of
 * 64 KiB, at equal or better throughput.
 */
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

/**
 * What {@link SizedByteSource.fill} reports: the number of bytes it wrote at the start of the view it was
 * given, or a `Uint8Array` over those bytes when filling moved the memory to a new `ArrayBuffer` (as native BYOB
 * reads do): same `byteOffset`, same buffer size, and the view's old buffer detached. 0 bytes means the end.
 */
export type FillResult = number | Uint8Array<ArrayBuffer>;

/** A pull-style byte source for {@link sizedByteStream}. */
export interface SizedByteSource {
  /**
   * Writes the next bytes into `view` and reports how many (0 at the end); never called again before the
   * previous call settles. The source must not touch `view` after the returned promise settles: the memory then
   * belongs to the reader.
   */
  fill(view: Uint8Array<ArrayBuffer>): FillResult | PromiseLike<FillResult>;
  /** Called once when the consumer cancels the stream; may be called while a `fill` is pending. */
  cancel?(reason: unknown): void | PromiseLike<void>;
}

/** Options of {@link sizedByteStream}. */
export interface SizedByteStreamOptions {
  /**
   * Size of the buffer each default-reader read is filled into (the stream's `autoAllocateChunkSize`); default
   * {@link DEFAULT_CHUNK_SIZE}. BYOB readers choose their own size with the view they pass.
   */
  chunkSize?: number;
  /**
   * Takes default-reader buffers from this pool instead of allocating them; `chunkSize` then defaults to the
   * pool's `bufferSize` and must equal it, and the stream has no `autoAllocateChunkSize` (default reads get
   * enqueued pool buffers). Chunks come back to the pool only through `pool.release(chunk)`.
   */
  pool?: BufferPool;
  /** Bytes to read ahead of the consumer (default 0: fill only when a read is waiting). */
  highWaterMark?: number;
}

/**
 * Builds a byte stream (`type: "bytes"`) that reads from `source` into buffers of `chunkSize` bytes. BYOB reads
 * are filled directly in the reader's view (its buffer is the reader's), default reads in a fresh buffer or
 * one from `options.pool`. A buffer is reused only after the consumer gives it back with `pool.release`, so
 * chunks a consumer keeps never change.
 *
 * @example
 * ```ts
 * declare const file: Uint8Array;
 * let offset = 0;
 * const stream = sizedByteStream(
 *   {
 *     fill(view) {
 *       const n = Math.min(view.byteLength, file.byteLength - offset);
 *       view.set(file.subarray(offset, offset + n));
 *       offset += n;
 *       return n;
 *     },
 *   },
 *   { chunkSize: 256 * 1024 },
 * );
 * ```
 */
export function sizedByteStream(
  source: SizedByteSource,
  options: SizedByteStreamOptions = {},
): ReadableStream<Uint8Array> {
  const { pool, highWaterMark = 0 } = options;
  const chunkSize = resolveChunkSize(options.chunkSize, pool);
  let finished = false;

  const fillRequest = async (
    controller: ReadableByteStreamController,
    request: ReadableStreamBYOBRequest,
  ): Promise<void> => {
    const view = request.view as Uint8Array<ArrayBuffer>;
    const region = regionOf(view);
    const result = await source.fill(view);
    if (finished) return;
    const filled = filledView(region, result);
    if (filled.byteLength === 0) controller.close();
    request.respondWithNewView(filled);
  };

  const fillChunk = async (controller: ReadableByteStreamController): Promise<void> => {
    const view = pool?.acquire() ?? new Uint8Array(chunkSize);
    const region = regionOf(view);
    const result = await source.fill(view);
    if (finished) return;
    const filled = filledView(region, result);
    if (filled.byteLength === 0) controller.close();
    else controller.enqueue(filled);
  };

  return new ReadableStream(
    {
      type: "bytes",
      autoAllocateChunkSize: pool === undefined ? chunkSize : undefined,
      pull(controller) {
        const request = controller.byobRequest;
        return request === null ? fillChunk(controller) : fillRequest(controller, request);
      },
      cancel(reason) {
        finished = true;
        return source.cancel?.(reason);
      },
    },
    { highWaterMark },
  );
}

function resolveChunkSize(chunkSize: number | undefined, pool: BufferPool | undefined): number {
  const size = chunkSize ?? pool?.bufferSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new RangeError(
      `Cannot create a sized byte stream: chunkSize must be a positive integer, current value is ${size}`,
    );
  }
  if (pool !== undefined && pool.bufferSize !== size) {
    throw new RangeError(
      `Cannot create a sized byte stream: chunkSize is ${size} but the pool's bufferSize is ${pool.bufferSize}`,
    );
  }
  return size;
}

/** Where a view handed to {@link SizedByteSource.fill} lay, recorded before the fill may detach its buffer. */
interface Region {
  buffer: ArrayBuffer;
  bufferByteLength: number;
  byteOffset: number;
  byteLength: number;
}

function regionOf(view: Uint8Array<ArrayBuffer>): Region {
  const { buffer, byteOffset, byteLength } = view;
  return { buffer, bufferByteLength: buffer.byteLength, byteOffset, byteLength };
}

/** The filled part of `region` as the source reported it, checked to lie over the memory the region covered. */
function filledView(region: Region, result: FillResult): Uint8Array<ArrayBuffer> {
  if (typeof result === "number") {
    if (!Number.isSafeInteger(result) || result < 0 || result > region.byteLength) {
      throw new RangeError(
        `Cannot use the source's fill result: it reports ${result} bytes written ` +
          `into a view of ${region.byteLength} bytes`,
      );
    }
    if (region.buffer.byteLength !== region.bufferByteLength) {
      throw new TypeError(
        "Cannot use the source's fill result: the view's buffer was detached; return the filled view instead",
      );
    }
    return new Uint8Array(region.buffer, region.byteOffset, result);
  }
  const sameMemory =
    result instanceof Uint8Array &&
    result.byteOffset === region.byteOffset &&
    result.buffer.byteLength === region.bufferByteLength &&
    (result.buffer === region.buffer || region.buffer.byteLength === 0);
  if (!sameMemory) {
    throw new TypeError(
      "Cannot use the source's fill result: it is not a view over the memory of the view it was given",
    );
  }
  if (result.byteLength > region.byteLength) {
    throw new RangeError(
      `Cannot use the source's fill result: it covers ${result.byteLength} bytes ` +
        `of a view of ${region.byteLength} bytes`,
    );
  }
  return result;
}
