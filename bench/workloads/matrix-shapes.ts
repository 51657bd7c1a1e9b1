/**
 * Scenario 10's shape matrix: the ordinary shapes of stream code, each written once against a streams
 * implementation's classes (`standard`), so that every implementation runs the same code; for some shapes also the
 * same work with drainpipe's batch API (`batch`: `readMany`, sinks with `writev`) and with Node 26's
 * `node:stream/iter` (`iter`). Every run returns a {@linkcode Tally} that must equal the shape's `expected`.
 *
 * Sizes scale with one number, `count`: most shapes move `count` chunks; each says how many in `chunks`.
 *
 * This module imports no implementation, so the runner (`bench/scenarios/10-shape-matrix.runner.ts`) and the
 * worker (`bench/workers/shape-matrix-worker.ts`) load only the one they measure.
 *
 * @module
 */
import type { StreamClasses, StreamsImplementation } from "../implementations/streams-implementation.ts";
import { addBytes, addValue, bytePool, byteTally, emptyTally, type Tally, valueTally } from "./matrix-chunks.ts";
import { HOST_CROSSING_SHAPES } from "./matrix-host-crossings.ts";
import type { IterTransform, MatrixShape, StreamIter } from "./matrix-shape.ts";
import {
  byteChunkSource,
  byteSink,
  byteStream,
  numberSource,
  readAll,
  summingSink,
  throughIdentities,
} from "./matrix-sources.ts";

/** Reads `stream` to its end with `implementation`'s `readMany`, passing every chunk to `add`. */
async function readManyAll<T>(
  implementation: StreamsImplementation,
  stream: ReadableStream<T>,
  add: (chunk: T) => void,
): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await implementation.extension!.readMany(reader as ReadableStreamDefaultReader<unknown>);
    for (const chunk of value) add(chunk as T);
    if (done) return;
  }
}

/** Iterates the batches of a `node:stream/iter` stream, passing every chunk to `tally`. */
async function iterateBatches(batches: AsyncIterable<Uint8Array[]>, tally: Tally): Promise<Tally> {
  for await (const batch of batches) for (const chunk of batch) addBytes(tally, chunk);
  return tally;
}

/** `count` position-coded `size`-byte chunks, as a generator (`node:stream/iter`'s source). */
function* byteChunks(count: number, size: number): Generator<Uint8Array> {
  const pool = bytePool(size);
  for (let index = 0; index < count; index++) yield pool[index % pool.length]!;
}

const passBatch: IterTransform = (batch) => batch;

/** Whether `streams` has `ReadableStream.from`. */
async function hasFrom(streams: StreamClasses): Promise<boolean> {
  return typeof (streams.ReadableStream as { from?: unknown }).from === "function";
}

/** `ReadableStream.from(iterable)` of `streams`. */
function streamFrom<T>(streams: StreamClasses, iterable: Iterable<T> | AsyncIterable<T>): ReadableStream<T> {
  return (streams.ReadableStream as unknown as { from(source: unknown): ReadableStream<T> }).from(iterable);
}

/** Whether `streams` has byte streams with BYOB readers. */
async function hasByob(streams: StreamClasses): Promise<boolean> {
  try {
    new streams.ReadableStream({ type: "bytes" }).getReader({ mode: "byob" });
    return true;
  } catch {
    return false;
  }
}

/** A BYOB read of `view`, with `{ min }` when given. */
function readInto(
  reader: ReadableStreamBYOBReader,
  view: Uint8Array,
  min: number | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const read = reader.read as (
    view: Uint8Array,
    options?: { min: number },
  ) => Promise<ReadableStreamReadResult<Uint8Array>>;
  return min === undefined ? read.call(reader, view) : read.call(reader, view, { min });
}

/** Whether a BYOB read of `streams` waits for `{ min }` bytes (Node 20 ignores the option). */
async function honoursMin(streams: StreamClasses): Promise<boolean> {
  if (!(await hasByob(streams))) return false;
  let pulls = 0;
  const stream = new streams.ReadableStream({
    type: "bytes",
    pull(controller) {
      controller.enqueue(new Uint8Array(1));
      if (++pulls === 2) controller.close();
    },
  });
  const { value } = await readInto(stream.getReader({ mode: "byob" }), new Uint8Array(2), 2);
  return value?.byteLength === 2;
}

/** Reads a byte stream of `count` 64-byte enqueues with BYOB reads of 4 KiB (`{ min: 4096 }` when `min`). */
async function byobReads(streams: StreamClasses, count: number, min: boolean): Promise<Tally> {
  const tally = emptyTally();
  const reader = byteStream(streams, count, 64).getReader({ mode: "byob" });
  let view = new Uint8Array(4096);
  for (;;) {
    const { done, value } = await readInto(reader, view, min ? 4096 : undefined);
    if (value) {
      addBytes(tally, value);
      view = new Uint8Array(value.buffer as ArrayBuffer, 0, 4096);
    }
    if (done) return tally;
  }
}

/** A value-chunk row: `count` numbers through `run`, which returns its tally. */
function valueShape(name: string, standard: MatrixShape["standard"], more: Partial<MatrixShape> = {}): MatrixShape {
  return { name, chunks: (count) => count, expected: valueTally, standard, ...more };
}

/** The reader loop over `count` numbers from a source paced by `pace`, and its `readMany` twin. */
function readerLoop(name: string, pace: Parameters<typeof numberSource>[2]): MatrixShape {
  return valueShape(
    name,
    async (streams, count) => {
      const tally = emptyTally();
      await readAll(numberSource(streams, count, pace), (value) => addValue(tally, value));
      return tally;
    },
    {
      async batch(implementation, count) {
        const tally = emptyTally();
        await readManyAll(implementation, numberSource(implementation, count, pace), (value: number) =>
          addValue(tally, value),
        );
        return tally;
      },
    },
  );
}

/** `ReadableStream.from` over what `iterable` makes of `count`, read with `for await`. */
function fromShape(name: string, iterable: (count: number) => Iterable<number> | AsyncIterable<number>): MatrixShape {
  return valueShape(
    name,
    async (streams, count) => {
      const tally = emptyTally();
      for await (const value of streamFrom(streams, iterable(count)) as unknown as AsyncIterable<number>)
        addValue(tally, value);
      return tally;
    },
    { supported: hasFrom },
  );
}

/** Numbers piped through `hops` identity transforms (sync or `async`) into a summing sink, and the `writev` twin. */
function pipeShape(name: string, hops: number, async: boolean, pace: Parameters<typeof numberSource>[2] = {}) {
  const sinkHighWaterMark = pace?.highWaterMark;
  const pipe = async (streams: StreamClasses, count: number, batch: boolean) => {
    const tally = emptyTally();
    const sink = summingSink(streams, tally, { highWaterMark: sinkHighWaterMark, batch });
    await throughIdentities(streams, numberSource(streams, count, pace), hops, async).pipeTo(sink);
    return tally;
  };
  return valueShape(name, (streams, count) => pipe(streams, count, false), {
    ...(async
      ? {}
      : { batch: (implementation: StreamsImplementation, count: number) => pipe(implementation, count, true) }),
  });
}

/** `size`-byte chunks in a value stream, read with a reader loop, with `readMany`, and with `from(generator)`. */
function byteReaderLoop(size: number, withIter: boolean): MatrixShape {
  return {
    name: `${size === 100 ? "100 B" : `${size / 1024} KiB`} chunks: reader loop`,
    chunks: (count) => count,
    expected: (count) => byteTally(count * size),
    async standard(streams, count) {
      const tally = emptyTally();
      await readAll(byteChunkSource(streams, count, size), (chunk) => addBytes(tally, chunk));
      return tally;
    },
    async batch(implementation, count) {
      const tally = emptyTally();
      await readManyAll(implementation, byteChunkSource(implementation, count, size), (chunk: Uint8Array) =>
        addBytes(tally, chunk),
      );
      return tally;
    },
    ...(withIter
      ? { iter: (api: StreamIter, count: number) => iterateBatches(api.from(byteChunks(count, size)), emptyTally()) }
      : {}),
  };
}

/** `chunks(count)` `size`-byte chunks through `hops` identity transforms into a tallying sink, and twins. */
function byteTransforms(
  name: string,
  size: number,
  hops: number,
  chunks: (count: number) => number,
  withIter: boolean,
) {
  const pipe = async (streams: StreamClasses, count: number, batch: boolean) => {
    const tally = emptyTally();
    const source = byteChunkSource(streams, chunks(count), size);
    await throughIdentities(streams, source, hops, false).pipeTo(byteSink(streams, tally, batch));
    return tally;
  };
  const shape: MatrixShape = {
    name,
    chunks,
    expected: (count) => byteTally(chunks(count) * size),
    standard: (streams, count) => pipe(streams, count, false),
    batch: (implementation, count) => pipe(implementation, count, true),
  };
  if (withIter)
    shape.iter = (api, count) => {
      const transforms = Array.from({ length: hops }, () => passBatch);
      return iterateBatches(api.pull(api.from(byteChunks(chunks(count), size)), ...transforms), emptyTally());
    };
  return shape;
}

/**
 * A producer writing `count` chunks into an identity `TransformStream` (`await writer.ready` before each write)
 * while a consumer reads the other side with a reader loop (`readMany` in the batch twin).
 */
async function pushThrough<T>(
  streams: StreamClasses,
  chunkAt: (index: number) => T,
  count: number,
  consume: (readable: ReadableStream<T>) => Promise<void>,
): Promise<void> {
  const { writable, readable } = new streams.TransformStream<T, T>();
  const produce = async () => {
    const writer = writable.getWriter();
    for (let index = 0; index < count; index++) {
      await writer.ready;
      void writer.write(chunkAt(index));
    }
    await writer.close();
  };
  await Promise.all([produce(), consume(readable)]);
}

/** Every shape, in report order. */
export const MATRIX_SHAPES: readonly MatrixShape[] = [
  readerLoop("reader loop, 1 chunk per pull", {}),
  readerLoop("reader loop, 16 chunks per pull", { perPull: 16 }),
  readerLoop("reader loop, 1 per pull, source HWM 64", { highWaterMark: 64 }),
  valueShape("for await, 1 per pull", async (streams, count) => {
    const tally = emptyTally();
    for await (const value of numberSource(streams, count) as unknown as AsyncIterable<number>) addValue(tally, value);
    return tally;
  }),
  fromShape("ReadableStream.from(array), for await", (count) => Array.from({ length: count }, (_, index) => index)),
  fromShape("ReadableStream.from(sync generator), for await", function* (count) {
    for (let index = 0; index < count; index++) yield index;
  }),
  fromShape("ReadableStream.from(async generator), for await", async function* (count) {
    for (let index = 0; index < count; index++) yield index;
  }),
  pipeShape("pipeTo, 1 per pull", 0, false),
  pipeShape("pipeTo, 16 per pull, HWM 64 both sides", 0, false, { perPull: 16, highWaterMark: 64 }),
  pipeShape("pipeThrough 1 sync transform + pipeTo", 1, false),
  pipeShape("pipeThrough 3 sync transforms + pipeTo", 3, false),
  pipeShape("pipeThrough 1 async transform + pipeTo", 1, true),
  pipeShape("pipeThrough 3 async transforms + pipeTo", 3, true),
  {
    name: "tee, both branches read",
    chunks: (count) => count,
    expected: (count) => ({ count: 2 * count, sum: count * (count - 1) }),
    async standard(streams, count) {
      const tally = emptyTally();
      const add = (value: number) => addValue(tally, value);
      const [first, second] = numberSource(streams, count).tee();
      await Promise.all([readAll(first, add), readAll(second, add)]);
      return tally;
    },
  },
  valueShape("tee, one branch cancelled", async (streams, count) => {
    const tally = emptyTally();
    const [first, second] = numberSource(streams, count).tee();
    const cancelled = second.cancel();
    await readAll(first, (value) => addValue(tally, value));
    await cancelled;
    return tally;
  }),
  valueShape("writer loop, await every write", async (streams, count) => {
    const tally = emptyTally();
    const writer = summingSink(streams, tally).getWriter();
    for (let index = 0; index < count; index++) await writer.write(index);
    await writer.close();
    return tally;
  }),
  valueShape("writer loop, await ready only, sink HWM 16", async (streams, count) => {
    const tally = emptyTally();
    const writer = summingSink(streams, tally, { highWaterMark: 16 }).getWriter();
    for (let index = 0; index < count; index++) {
      await writer.ready;
      void writer.write(index);
    }
    await writer.close();
    return tally;
  }),
  valueShape(
    "push: writer into a TransformStream, reader loop",
    async (streams, count) => {
      const tally = emptyTally();
      await pushThrough(
        streams,
        (index) => index,
        count,
        (readable) => readAll(readable, (value) => addValue(tally, value)),
      );
      return tally;
    },
    {
      async batch(implementation, count) {
        const tally = emptyTally();
        await pushThrough(
          implementation,
          (index) => index,
          count,
          (readable) => readManyAll(implementation, readable, (value: number) => addValue(tally, value)),
        );
        return tally;
      },
    },
  ),
  {
    name: "byte stream, default reader, 100 B enqueues",
    chunks: (count) => count,
    expected: (count) => byteTally(count * 100),
    supported: hasByob,
    async standard(streams, count) {
      const tally = emptyTally();
      await readAll(byteStream(streams, count, 100), (chunk) => addBytes(tally, chunk));
      return tally;
    },
  },
  {
    name: "byte stream, default reader, autoAllocateChunkSize 4 KiB, 100 B responds",
    chunks: (count) => count,
    expected: (count) => byteTally(count * 100),
    supported: hasByob,
    async standard(streams, count) {
      const tally = emptyTally();
      await readAll(byteStream(streams, count, 100, 4096), (chunk) => addBytes(tally, chunk));
      return tally;
    },
  },
  {
    name: "byte stream, BYOB reads of 4 KiB, 64 B enqueues",
    chunks: (count) => count,
    expected: (count) => byteTally(count * 64),
    supported: hasByob,
    standard: (streams, count) => byobReads(streams, count, false),
  },
  {
    name: "byte stream, BYOB reads { min: 4 KiB }, 64 B enqueues",
    chunks: (count) => count,
    expected: (count) => byteTally(count * 64),
    supported: honoursMin,
    standard: (streams, count) => byobReads(streams, count, true),
  },
  {
    name: "streams of 10 chunks (count ÷ 10 streams), reader loop each",
    chunks: (count) => Math.ceil(count / 10) * 10,
    expected: (count) => ({ count: Math.ceil(count / 10) * 10, sum: Math.ceil(count / 10) * 45 }),
    async standard(streams, count) {
      const tally = emptyTally();
      for (let stream = 0; stream < Math.ceil(count / 10); stream++)
        await readAll(numberSource(streams, 10), (value) => addValue(tally, value));
      return tally;
    },
  },
  byteTransforms(
    "64 KiB chunks (count ÷ 25): TransformStream + pipeTo",
    65_536,
    1,
    (count) => Math.ceil(count / 25),
    false,
  ),
  {
    name: "cancel mid-stream: read 10 of 20, cancel (count ÷ 10 streams)",
    chunks: (count) => Math.ceil(count / 10) * 10,
    expected: (count) => ({ count: Math.ceil(count / 10) * 10, sum: Math.ceil(count / 10) * 45 }),
    async standard(streams, count) {
      const tally = emptyTally();
      for (let stream = 0; stream < Math.ceil(count / 10); stream++) {
        const reader = numberSource(streams, 20).getReader();
        for (let index = 0; index < 10; index++) addValue(tally, (await reader.read()).value!);
        await reader.cancel();
      }
      return tally;
    },
  },
  {
    name: "abort mid-stream: pipeTo, signal aborted at 10 of 20 (count ÷ 10 streams)",
    chunks: (count) => Math.ceil(count / 10) * 10,
    expected: (count) => ({ count: Math.ceil(count / 10) * 10, sum: Math.ceil(count / 10) * 45 }),
    async standard(streams, count) {
      const tally = emptyTally();
      for (let stream = 0; stream < Math.ceil(count / 10); stream++) {
        const abort = new AbortController();
        const sink = new streams.WritableStream<number>({
          write(value) {
            addValue(tally, value);
            if (value === 9) abort.abort();
          },
        });
        const piped = await numberSource(streams, 20)
          .pipeTo(sink, { signal: abort.signal })
          .then(
            () => true,
            () => false,
          );
        if (piped) throw new Error("Cannot abort mid-stream: pipeTo resolved although its signal was aborted");
      }
      return tally;
    },
  },
  byteReaderLoop(100, true),
  byteTransforms("100 B chunks: 3 transforms + pipeTo", 100, 3, (count) => count, true),
  {
    name: "100 B chunks: push through a TransformStream",
    chunks: (count) => count,
    expected: (count) => byteTally(count * 100),
    async standard(streams, count) {
      const tally = emptyTally();
      const pool = bytePool(100);
      await pushThrough(
        streams,
        (index) => pool[index % pool.length]!,
        count,
        (readable) => readAll(readable, (chunk) => addBytes(tally, chunk)),
      );
      return tally;
    },
    async batch(implementation, count) {
      const tally = emptyTally();
      const pool = bytePool(100);
      await pushThrough(
        implementation,
        (index) => pool[index % pool.length]!,
        count,
        (readable) => readManyAll(implementation, readable, (chunk: Uint8Array) => addBytes(tally, chunk)),
      );
      return tally;
    },
    async iter(api, count) {
      const tally = emptyTally();
      const { writer, readable } = api.push();
      const produce = async () => {
        for (const chunk of byteChunks(count, 100)) await writer.write(chunk);
        await writer.end();
      };
      await Promise.all([produce(), iterateBatches(readable, tally)]);
      return tally;
    },
  },
  byteReaderLoop(8192, false),
  byteTransforms("8 KiB chunks: TransformStream + pipeTo", 8192, 1, (count) => count, false),
  ...HOST_CROSSING_SHAPES,
];
