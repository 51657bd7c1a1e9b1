/**
 * The per-number and batch pipelines of scenarios 3 and 7, on drainpipe's streams as `src/` uses them: file chunks
 * → `LineToNumberStream` (one number per chunk) or `LineToNumberBatchStream` (one `Float64Array` per input chunk)
 * → `SplitWritableStream`. Scenario 3 runs them in Node, the bench worker (`ingest-worker.ts`) inside workerd.
 *
 * @module
 */
import { LineToNumberBatchStream } from "../../src/numbers/line-to-number-batch-stream.ts";
import { LineToNumberStream } from "../../src/numbers/line-to-number-stream.ts";
import type { PartSplitter } from "../../src/split/part-splitter.ts";
import { SplitWritableStream } from "../../src/split/split-writable-stream.ts";
import { streamOf } from "./byte-chunks.ts";

/**
 * Parses `chunks` with `LineToNumberStream` into `splitter`, one number per chunk; resolves the part keys in
 * order.
 *
 * @example
 * ```ts
 * const splitter = new PartSplitter({ store, name: "bench", uploadId: "per-number", maxPartBytes: 10 << 20 });
 * const keys = await splitPerNumber(chunksOf(bytes), splitter);
 * ```
 */
export async function splitPerNumber(chunks: readonly Uint8Array[], splitter: PartSplitter): Promise<string[]> {
  const sink = new SplitWritableStream<number>(splitter);
  await streamOf(chunks).pipeThrough(new LineToNumberStream()).pipeTo(sink);
  return (await sink.parts).map((part) => part.key);
}

/**
 * Parses `chunks` with `LineToNumberBatchStream` into `splitter`, one batch per chunk; resolves the part keys in
 * order.
 *
 * @example
 * ```ts
 * const splitter = new PartSplitter({ store, name: "bench", uploadId: "batch", maxPartBytes: 10 << 20 });
 * const keys = await splitBatch(chunksOf(bytes), splitter);
 * ```
 */
export async function splitBatch(chunks: readonly Uint8Array[], splitter: PartSplitter): Promise<string[]> {
  const sink = new SplitWritableStream<Float64Array>(splitter);
  await streamOf(chunks).pipeThrough(new LineToNumberBatchStream()).pipeTo(sink);
  return (await sink.parts).map((part) => part.key);
}
