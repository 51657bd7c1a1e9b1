/**
 * Worker for the ingest benchmark (bundled by ingest-chunk-size.ts): reads a POST body the way a parser would,
 * with a default reader, and answers with what it saw. `?mode=` picks how the body is read:
 * `sized` (fromNativeStream with `?chunk=` bytes per read), `pooled` (the same with a BufferPool and every
 * chunk released), `native` (the body's own default reader). With `?memory=N` the worker ignores the upload
 * and reads the body of a Request it builds over N bytes in memory instead, leaving the network out.
 * @module
 */

import { BufferPool } from "../../src/streams/adapters/buffer-pool.ts";
import { fromNativeStream } from "../../src/streams/adapters/from-native.ts";

interface Counted {
  stream: ReadableStream<Uint8Array>;
  nativeReads: () => number;
}

/** Wraps `body` so that the reads the adapter makes of it are counted. */
function counted(body: ReadableStream<Uint8Array>): Counted {
  let reads = 0;
  const stream = {
    locked: false,
    getReader(options?: { mode: "byob" }) {
      const reader = body.getReader(options as { mode: "byob" }) as unknown as Record<string, unknown>;
      return new Proxy(reader, {
        get(target, key) {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== "function") return value;
          if (key !== "read" && key !== "readAtLeast") return value.bind(target);
          return (...args: unknown[]) => {
            reads++;
            return Reflect.apply(value, target, args);
          };
        },
      });
    },
  };
  return { stream: stream as unknown as ReadableStream<Uint8Array>, nativeReads: () => reads };
}

/** The benchmark worker: reads the body as `?mode=` says and answers with counts and timing as JSON. */
export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const mode = url.searchParams.get("mode") ?? "sized";
    const chunk = Number(url.searchParams.get("chunk") ?? 1024 * 1024);
    const memory = Number(url.searchParams.get("memory") ?? 0);
    const body =
      memory > 0 ? new Request(request.url, { method: "POST", body: new Uint8Array(memory) }).body! : request.body!;
    const started = Date.now();
    let reads = 0;
    let bytes = 0;
    let checksum = 0;
    let nativeReads: () => number = () => reads;
    if (mode === "native") {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        reads++;
        bytes += value.byteLength;
        checksum = (checksum + value[0]!) | 0;
      }
    } else {
      const wrapped = counted(body);
      nativeReads = wrapped.nativeReads;
      const pool = mode === "pooled" ? new BufferPool({ bufferSize: chunk, maxFree: 4 }) : undefined;
      const reader = fromNativeStream(wrapped.stream, { readSize: chunk, pool }).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        reads++;
        bytes += value.byteLength;
        checksum = (checksum + value[0]!) | 0;
        pool?.release(value);
      }
    }
    return Response.json({
      mode,
      chunk,
      bytes,
      reads,
      nativeReads: nativeReads(),
      checksum,
      workerMs: Date.now() - started,
    });
  },
};
