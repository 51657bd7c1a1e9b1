/**
 * Scenario 2's matrix, after the benchmark tables of the workerd draining-read PR (the pull request that gave
 * workerd's pipes a "draining read"): chunk sizes Tiny 64 B × 256, Small 256 B × 100, Medium 4 KiB × 100,
 * Large 64 KiB × 16, each as a value stream and a byte stream with highWaterMark 0 and 16 KiB, and a byte stream
 * with autoAllocateChunkSize 64 KiB, pumped with `pipeTo` into a discarding sink that counts bytes and write calls.
 *
 * @module
 */
import type { StreamsImplementation } from "../implementations/streams-implementation.ts";

/** One chunk size of the matrix. */
export interface ChunkSize {
  /** "Tiny", "Small", "Medium" or "Large". */
  name: string;
  /** Bytes per chunk. */
  bytes: number;
  /** Chunks per stream. */
  chunks: number;
}

/** The four sizes of the PR's tables. */
export const CHUNK_SIZES: readonly ChunkSize[] = [
  { name: "Tiny", bytes: 64, chunks: 256 },
  { name: "Small", bytes: 256, chunks: 100 },
  { name: "Medium", bytes: 4096, chunks: 100 },
  { name: "Large", bytes: 65536, chunks: 16 },
];

/** One stream configuration of the matrix. */
export interface StreamConfig {
  /** The name the reports use, e.g. "byte, HWM 16 KiB". */
  name: string;
  /** The PR's name of the same configuration (the suffix of its benchmark names). */
  prName: string;
  /** `"bytes"` for a byte stream. */
  type: "value" | "bytes";
  /** High-water mark in bytes. */
  highWaterMark: number;
  /** For byte streams: `autoAllocateChunkSize`. */
  autoAllocateChunkSize?: number;
}

/** The five configurations of the PR's first table set. */
export const STREAM_CONFIGS: readonly StreamConfig[] = [
  { name: "value, HWM 0", prName: "Value", type: "value", highWaterMark: 0 },
  { name: "value, HWM 16 KiB", prName: "Value_HWM16K", type: "value", highWaterMark: 16 * 1024 },
  { name: "byte, HWM 0", prName: "Byte", type: "bytes", highWaterMark: 0 },
  { name: "byte, HWM 16 KiB", prName: "Byte_HWM16K", type: "bytes", highWaterMark: 16 * 1024 },
  {
    name: "byte, autoAllocate 64 KiB",
    prName: "Byte_Auto64K",
    type: "bytes",
    highWaterMark: 0,
    autoAllocateChunkSize: 64 * 1024,
  },
];

/**
 * The PR's published New/Existing speedups (the tables of its first comment, workerd's own benchmark harness),
 * by `<size>_<prName>`.
 */
export const PUBLISHED_SPEEDUPS: Readonly<Record<string, number>> = {
  Tiny_Value: 1.8,
  Small_Value: 1.7,
  Medium_Value: 1.7,
  Large_Value: 1.3,
  Tiny_Value_HWM16K: 5.5,
  Small_Value_HWM16K: 5.2,
  Medium_Value_HWM16K: 4.4,
  Large_Value_HWM16K: 1.5,
  Tiny_Byte: 2.0,
  Small_Byte: 2.0,
  Medium_Byte: 1.9,
  Large_Byte: 14.5,
  Tiny_Byte_HWM16K: 1.1,
  Small_Byte_HWM16K: 1.4,
  Medium_Byte_HWM16K: 3.9,
  Large_Byte_HWM16K: 14.5,
  Tiny_Byte_Auto64K: 2.5,
  Small_Byte_Auto64K: 2.5,
  Medium_Byte_Auto64K: 2.3,
  Large_Byte_Auto64K: 1.9,
};

/** What the discarding sink counted. */
export interface SinkCount {
  /** Bytes received. */
  bytes: number;
  /** `write` calls. */
  writes: number;
}

/** A stream of `size.chunks` chunks of `size.bytes` bytes in the given configuration. */
function source(
  implementation: StreamsImplementation,
  size: ChunkSize,
  config: StreamConfig,
): ReadableStream<Uint8Array> {
  const payload = new Uint8Array(size.bytes).fill(0x61);
  let sent = 0;
  if (config.type === "value") {
    return new implementation.ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(payload.slice());
          if (++sent === size.chunks) controller.close();
        },
      },
      { highWaterMark: config.highWaterMark, size: (chunk: Uint8Array) => chunk.byteLength },
    );
  }
  let chunkSent = 0;
  return new implementation.ReadableStream({
    type: "bytes",
    highWaterMark: config.highWaterMark,
    ...(config.autoAllocateChunkSize === undefined ? {} : { autoAllocateChunkSize: config.autoAllocateChunkSize }),
    pull(controller: ReadableByteStreamController) {
      // A BYOB request may offer less room than a chunk (workerd's pipe offers a few KiB): the chunk then
      // goes out over several pulls.
      const request = controller.byobRequest;
      if (request?.view) {
        const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
        const length = Math.min(size.bytes - chunkSent, view.byteLength);
        view.set(payload.subarray(0, length));
        request.respond(length);
        chunkSent += length;
      } else {
        controller.enqueue(payload.slice(chunkSent));
        chunkSent = size.bytes;
      }
      if (chunkSent === size.bytes) {
        chunkSent = 0;
        if (++sent === size.chunks) controller.close();
      }
    },
  } as UnderlyingByteSource) as ReadableStream<Uint8Array>;
}

/**
 * Pumps one stream of the case into a discarding `WritableStream` with `pipeTo` and returns what arrived (the
 * sink also takes `writev` batches when the implementation has the draining extension).
 *
 * @example
 * ```ts
 * await pumpCase(IMPLEMENTATIONS[0], CHUNK_SIZES[0], STREAM_CONFIGS[0]); // { bytes: 16384, writes: 256 }
 * ```
 */
export async function pumpCase(
  implementation: StreamsImplementation,
  size: ChunkSize,
  config: StreamConfig,
): Promise<SinkCount> {
  const count = { bytes: 0, writes: 0 };
  const counting = {
    write(chunk: Uint8Array) {
      count.bytes += chunk.byteLength;
      count.writes += 1;
    },
    writev(chunks: Uint8Array[]) {
      for (const chunk of chunks) count.bytes += chunk.byteLength;
      count.writes += 1;
    },
  };
  // With the draining extension the sink takes batches (one write call per batch); elsewhere only `write`.
  const sink = new implementation.WritableStream<Uint8Array>(
    implementation.extension ? counting : { write: counting.write },
  );
  await source(implementation, size, config).pipeTo(sink);
  return count;
}

/** The PR's key of a case, e.g. "Tiny_Byte_HWM16K". */
export function prCaseKey(size: ChunkSize, config: StreamConfig): string {
  return `${size.name}_${config.prName}`;
}

/** Streams pumped per sample, by chunk size, so that a sample lasts tens of milliseconds (1 in quick mode). */
export function repsPerSample(size: ChunkSize, quick: boolean): number {
  if (quick) return 1;
  return { Tiny: 20, Small: 40, Medium: 20, Large: 40 }[size.name] ?? 20;
}
