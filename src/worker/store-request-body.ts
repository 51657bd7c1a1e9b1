import type { Manifest } from "../files/manifest.ts";
import { storeNumbers } from "../files/store-numbers.ts";
import { LineToNumberStream } from "../numbers/line-to-number-stream.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { BufferPool } from "../streams/adapters/buffer-pool.ts";
import { fromNativeStream } from "../streams/adapters/from-native.ts";
import { DEFAULT_CHUNK_SIZE } from "../streams/adapters/sized-byte-stream.ts";
import { ReadableStream } from "../streams/standard/readable-stream.ts";
import { declaredLength, limitBytes } from "./upload-limits.ts";

/** Options of {@linkcode storeRequestBody}. */
export interface StoreRequestBodyOptions {
  /** Where parts and manifest go. */
  store: ObjectStore;
  /** The file name. */
  name: string;
  /** Size limit of one part in bytes. */
  maxPartBytes: number;
  /** Largest accepted body in bytes. */
  maxUploadBytes: number;
  /** Most numbers accepted. */
  maxUploadNumbers: number;
}

/**
 * The upload pipeline, as drainpipe streams: `request.body` read in 1 MiB pieces into pooled buffers
 * (`fromNativeStream`) → the byte limit and `Content-Length` check → `LineToNumberStream`, one number per
 * chunk, handing each buffer back to the pool once parsed → `storeNumbers`, whose sink takes the numbers in
 * `writev` batches. Resolves with the manifest; on any failure nothing of the attempt is left behind.
 *
 * @example
 * ```ts
 * const manifest = await storeRequestBody(request, {
 *   store: new R2Store(env.BUCKET),
 *   name: "primes",
 *   maxPartBytes: 10 * 1024 * 1024,
 *   maxUploadBytes: 1 << 30,
 *   maxUploadNumbers: 200_000_000,
 * });
 * ```
 */
export function storeRequestBody(request: Request, options: StoreRequestBodyOptions): Promise<Manifest> {
  const { store, name, maxPartBytes, maxUploadBytes, maxUploadNumbers } = options;
  const declared = declaredLength(request, maxUploadBytes);
  const pool = new BufferPool({ bufferSize: DEFAULT_CHUNK_SIZE, maxFree: 2 });
  const bytes = request.body
    ? fromNativeStream(request.body, { pool })
    : new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const parser = new LineToNumberStream({ releaseChunk: (chunk) => pool.release(chunk) });
  const numbers = bytes.pipeThrough(limitBytes(maxUploadBytes, declared)).pipeThrough(parser);
  return storeNumbers(numbers, {
    store,
    name,
    maxPartBytes,
    maxNumbers: maxUploadNumbers,
    source: () => {
      const { bytes, lines, canonical } = parser.stats;
      return { kind: "upload", bytes, lines, canonical };
    },
  });
}
