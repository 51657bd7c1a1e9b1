/**
 * One variant of scenario 9, run in a process of its own on Node 26 with `--experimental-stream-iter`:
 * `node --experimental-stream-iter bench/scenarios/09-iterable-bridges.variant.ts <variant> <count> <size> <runs>`.
 * Moves `count` chunks of `size` bytes `runs` times and prints one JSON line: the milliseconds of each run, and the
 * chunks, bytes and batches (steps of the consuming loop, or sink calls) the last run saw.
 * @module
 */

import {
  ReadableStream as DrainpipeReadableStream,
  WritableStream as DrainpipeWritableStream,
} from "../../src/streams/index.ts";
import { fromStreamable, toWriter } from "../../src/streams/iterable/index.ts";

/** The parts of `node:stream/iter` the variants use. */
interface StreamIter {
  from(input: unknown): AsyncIterable<Uint8Array[]>;
  pipeTo(input: unknown, writer: unknown): Promise<number>;
}

/** What one run saw. */
export interface VariantCounts {
  chunks: number;
  bytes: number;
  batches: number;
}

/** The names of the variants, in table order. */
export const VARIANT_NAMES = [
  "from(generator)",
  "from(native ReadableStream)",
  "from(drainpipe ReadableStream)",
  "pipeTo(from(generator), one-write-per-chunk writer over a native WritableStream)",
  "pipeTo(from(generator), one-write-per-chunk writer over a drainpipe WritableStream)",
  "pipeTo(from(generator), toWriter(drainpipe WritableStream))",
  "fromStreamable(from(generator)) read with readMany",
] as const;

/** A variant's name. */
export type VariantName = (typeof VARIANT_NAMES)[number];

/** The chunks every variant moves: one array, made once per process, so no run times their allocation. */
function chunksOf(count: number, size: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new Uint8Array(size).fill(i % 256));
}

function* generator(chunks: readonly Uint8Array[]): Generator<Uint8Array> {
  for (let i = 0; i < chunks.length; i++) yield chunks[i]!;
}

/** A pull source handing out `chunks` one per pull (synchronously), for either implementation's ReadableStream. */
function pullSource(chunks: readonly Uint8Array[]) {
  let next = 0;
  return {
    pull(controller: { enqueue(chunk: Uint8Array): void; close(): void }) {
      if (next === chunks.length) controller.close();
      else controller.enqueue(chunks[next++]!);
    },
  };
}

async function consume(iterable: AsyncIterable<Uint8Array[]>): Promise<VariantCounts> {
  const counts = { chunks: 0, bytes: 0, batches: 0 };
  for await (const batch of iterable) {
    counts.batches += 1;
    counts.chunks += batch.length;
    for (let i = 0; i < batch.length; i++) counts.bytes += batch[i]!.byteLength;
  }
  return counts;
}

/** A sink counting what it is given, with `writev` when `batches` is true; `counts.batches` counts its calls. */
function countingSink(counts: VariantCounts, batches: boolean) {
  return {
    write(chunk: Uint8Array) {
      counts.batches += 1;
      counts.chunks += 1;
      counts.bytes += chunk.byteLength;
    },
    ...(batches
      ? {
          writev(chunks: Uint8Array[]) {
            counts.batches += 1;
            counts.chunks += chunks.length;
            for (let i = 0; i < chunks.length; i++) counts.bytes += chunks[i]!.byteLength;
          },
        }
      : {}),
  };
}

/** The writer a new user writes over a web writable stream: one `write` per chunk, awaited by `pipeTo`. */
function oneWritePerChunk(writable: { getWriter(): WritableStreamDefaultWriter<Uint8Array> }) {
  const writer = writable.getWriter();
  let bytes = 0;
  return {
    write(chunk: Uint8Array) {
      bytes += chunk.byteLength;
      return writer.write(chunk);
    },
    end: () => writer.close().then(() => bytes),
    fail: (reason: unknown) => void writer.abort(reason).catch(() => undefined),
  };
}

/** The high-water mark of every writable stream here (chunks): room for whole 128-chunk batches. */
const HIGH_WATER_MARK = 1024;

/** Runs variant `name` once over `chunks`. */
export async function runVariant(iter: StreamIter, name: VariantName, chunks: Uint8Array[]): Promise<VariantCounts> {
  const counts: VariantCounts = { chunks: 0, bytes: 0, batches: 0 };
  switch (name) {
    case "from(generator)":
      return consume(iter.from(generator(chunks)));
    case "from(native ReadableStream)":
      return consume(iter.from(new ReadableStream<Uint8Array>(pullSource(chunks))));
    case "from(drainpipe ReadableStream)":
      return consume(iter.from(new DrainpipeReadableStream<Uint8Array>(pullSource(chunks))));
    case "pipeTo(from(generator), one-write-per-chunk writer over a native WritableStream)": {
      const writable = new WritableStream<Uint8Array>(countingSink(counts, false), { highWaterMark: HIGH_WATER_MARK });
      await iter.pipeTo(iter.from(generator(chunks)), oneWritePerChunk(writable));
      return counts;
    }
    case "pipeTo(from(generator), one-write-per-chunk writer over a drainpipe WritableStream)": {
      const sink = countingSink(counts, true);
      const writable = new DrainpipeWritableStream<Uint8Array>(sink, { highWaterMark: HIGH_WATER_MARK });
      await iter.pipeTo(iter.from(generator(chunks)), oneWritePerChunk(writable as never));
      return counts;
    }
    case "pipeTo(from(generator), toWriter(drainpipe WritableStream))": {
      const sink = countingSink(counts, true);
      const writable = new DrainpipeWritableStream<Uint8Array>(sink, { highWaterMark: HIGH_WATER_MARK });
      await iter.pipeTo(iter.from(generator(chunks)), toWriter(writable));
      return counts;
    }
    case "fromStreamable(from(generator)) read with readMany": {
      // Each batch arrives as one chunk of its bytes: the chunks moved are counted in source chunks (all one size).
      const size = chunks[0]?.byteLength ?? 1;
      const reader = fromStreamable(iter.from(generator(chunks))).getReader();
      for (;;) {
        const { chunks: read, done } = await reader.readMany();
        if (read.length > 0) counts.batches += 1;
        for (let i = 0; i < read.length; i++) counts.bytes += read[i]!.byteLength;
        if (done) {
          counts.chunks = counts.bytes / size;
          return counts;
        }
      }
    }
  }
}

if (import.meta.main) {
  const [name, count, size, runs] = process.argv.slice(2);
  if (!VARIANT_NAMES.includes(name as VariantName)) throw new Error(`Cannot run variant "${name}": unknown`);
  const iter = (await import("node:stream/iter" as string)) as StreamIter;
  const chunks = chunksOf(Number(count), Number(size));
  const ms: number[] = [];
  let last: VariantCounts | undefined;
  for (let run = 0; run < Number(runs); run++) {
    const start = performance.now();
    last = await runVariant(iter, name as VariantName, chunks);
    ms.push(performance.now() - start);
  }
  console.log(JSON.stringify({ ms, ...last }));
}
