/**
 * The sources and sinks scenario 10's shapes (`matrix-shapes.ts`) are built from, written once against a streams
 * implementation's classes, so that every implementation runs the same code.
 *
 * @module
 */
import type { StreamClasses } from "../implementations/streams-implementation.ts";
import { addBytes, addValue, bytePool, fillBytes, freshBytes, type Tally } from "./matrix-chunks.ts";

/** How a value source produces: chunks per pull, and its high-water mark (the default strategy's 1 when absent). */
export interface SourcePace {
  /** Chunks enqueued per pull (1 unless given). */
  perPull?: number;
  /** The source's high-water mark (count strategy), when not the default. */
  highWaterMark?: number;
}

/** A pull source of the numbers 0 … `count` − 1. */
export function numberSource(
  streams: StreamClasses,
  count: number,
  { perPull = 1, highWaterMark }: SourcePace = {},
): ReadableStream<number> {
  let next = 0;
  const strategy = highWaterMark === undefined ? undefined : { highWaterMark };
  return new streams.ReadableStream<number>(
    {
      pull(controller) {
        const end = Math.min(count, next + perPull);
        while (next < end) controller.enqueue(next++);
        if (next === count) controller.close();
      },
    },
    strategy,
  );
}

/** A pull source of `count` position-coded `size`-byte chunks in a value stream (one per pull). */
export function byteChunkSource(streams: StreamClasses, count: number, size: number): ReadableStream<Uint8Array> {
  const pool = bytePool(size);
  let next = 0;
  return new streams.ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(pool[next % pool.length]!);
      if (++next === count) controller.close();
    },
  });
}

/**
 * A byte stream (`type: "bytes"`) of `count` × `size` position-coded bytes, one piece per pull: a fresh `size`-byte
 * chunk enqueued, or, given `autoAllocateChunkSize`, up to `size` bytes written into the request's view and
 * responded.
 */
export function byteStream(
  streams: StreamClasses,
  count: number,
  size: number,
  autoAllocateChunkSize?: number,
): ReadableStream<Uint8Array> {
  const total = count * size;
  let position = 0;
  const source: UnderlyingByteSource = {
    type: "bytes",
    pull(controller) {
      const request = autoAllocateChunkSize === undefined ? null : controller.byobRequest;
      if (request?.view) {
        const { buffer, byteOffset, byteLength } = request.view;
        const length = Math.min(size, byteLength, total - position);
        fillBytes(new Uint8Array(buffer, byteOffset, length), position);
        request.respond(length);
        position += length;
      } else {
        controller.enqueue(freshBytes(size, position));
        position += size;
      }
      if (position === total) {
        controller.close();
        // A BYOB read still waiting for its `min` gets the bytes it holds, and its done, on `respond(0)`.
        controller.byobRequest?.respond(0);
      }
    },
  };
  if (autoAllocateChunkSize !== undefined) source.autoAllocateChunkSize = autoAllocateChunkSize;
  return new streams.ReadableStream(source);
}

/**
 * The high-water mark of a `writev` sink whose shape sets none: the README's `writev` example's. A sink that asks for
 * one chunk at a time (the default, 1) is handed one at a time, so its `writev` never sees a batch.
 */
const WRITEV_HIGH_WATER_MARK = 1024;

/** A sink adding up the numbers it receives into `tally`; with `writev` when given `batch` (drainpipe's extension). */
export function summingSink(
  streams: StreamClasses,
  tally: Tally,
  { highWaterMark, batch = false }: { highWaterMark?: number; batch?: boolean } = {},
): WritableStream<number> {
  const sink: UnderlyingSink<number> & { writev?(chunks: number[]): void } = {
    write(chunk) {
      addValue(tally, chunk);
    },
  };
  if (batch)
    sink.writev = (chunks) => {
      for (const chunk of chunks) addValue(tally, chunk);
    };
  const mark = highWaterMark ?? (batch ? WRITEV_HIGH_WATER_MARK : undefined);
  return new streams.WritableStream<number>(sink, mark === undefined ? undefined : { highWaterMark: mark });
}

/** A sink tallying the position-coded byte chunks it receives; with `writev` (and room for a batch) given `batch`. */
export function byteSink(streams: StreamClasses, tally: Tally, batch = false): WritableStream<Uint8Array> {
  const sink: UnderlyingSink<Uint8Array> & { writev?(chunks: Uint8Array[]): void } = {
    write(chunk) {
      addBytes(tally, chunk);
    },
  };
  if (batch)
    sink.writev = (chunks) => {
      for (const chunk of chunks) addBytes(tally, chunk);
    };
  return new streams.WritableStream<Uint8Array>(sink, batch ? { highWaterMark: WRITEV_HIGH_WATER_MARK } : undefined);
}

/** An identity `TransformStream`, its `transform` synchronous or `async`. */
export function identity<T>(streams: StreamClasses, async: boolean): TransformStream<T, T> {
  return new streams.TransformStream<T, T>(
    async
      ? {
          async transform(chunk, controller) {
            controller.enqueue(chunk);
          },
        }
      : {
          transform(chunk, controller) {
            controller.enqueue(chunk);
          },
        },
  );
}

/** `source` piped through `hops` identity transforms. */
export function throughIdentities<T>(
  streams: StreamClasses,
  source: ReadableStream<T>,
  hops: number,
  async: boolean,
): ReadableStream<T> {
  let stream = source;
  for (let hop = 0; hop < hops; hop++) stream = stream.pipeThrough(identity<T>(streams, async));
  return stream;
}

/** Reads `stream` to its end with a reader loop, passing every chunk to `add`. */
export async function readAll<T>(stream: ReadableStream<T>, add: (chunk: T) => void): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    add(value);
  }
}
