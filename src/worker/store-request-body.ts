import type { Manifest } from "../files/manifest.ts";
import { type StoreNumbersOptions, storeLines } from "../files/store-numbers.ts";
import { BufferPool } from "../streams/adapters/buffer-pool.ts";
import { type FromNativeOptions, fromNativeStream } from "../streams/adapters/from-native.ts";
import { type ReadPace, ReadTimeoutError } from "../streams/adapters/read-pace.ts";
import { DEFAULT_CHUNK_SIZE } from "../streams/adapters/sized-byte-stream.ts";
import { ReadableStream } from "../streams/engine/readable-stream.ts";
import type { WritableStream } from "../streams/engine/writable-stream.ts";
import { HttpError } from "./http-error.ts";
import { declaredLength, limitBytes } from "./upload-limits.ts";

/** A stage bytes pass through: a `TransformStream`, or any pair of a writable and a readable side. */
export interface ByteStage {
  /** Where the bytes go in. */
  writable: WritableStream<Uint8Array>;
  /** Where they come out. */
  readable: ReadableStream<Uint8Array>;
}

/**
 * The body of `request` as drainpipe bytes (`fromNativeStream` with `options`: read pace, drain on cancel, buffer
 * pool), or an empty stream when it has none.
 *
 * @example
 * ```ts
 * const bytes = requestBytes(new Request("https://x/", { method: "POST", body: "1\n" }));
 * ```
 */
export function requestBytes(request: Request, options: FromNativeOptions = {}): ReadableStream<Uint8Array> {
  return request.body
    ? fromNativeStream(request.body, options)
    : new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}

/**
 * Options of {@linkcode storeRequestBody}: those of `storeNumbers` that a request may set, and the body's
 * byte limit.
 */
export interface StoreRequestBodyOptions
  extends Pick<StoreNumbersOptions, "store" | "name" | "maxPartBytes" | "maxNumbers" | "uploadId" | "publish"> {
  /** Largest accepted body in bytes. */
  maxUploadBytes: number;
  /**
   * The slowest accepted body: one that misses it fails the upload with a `ReadTimeoutError` (`408`), and the
   * drain of a refused body stops there too. Default: no deadline (the worker's routes always pass
   * `Settings.bodyPace`).
   */
  pace?: ReadPace | undefined;
  /** The stages the checked body passes through, in order, before parsing (a `BodyDigest` stage, say). */
  through?: readonly ByteStage[] | undefined;
}

/**
 * The upload pipeline, as drainpipe streams: `request.body` read in 1 MiB pieces into pooled buffers
 * (`fromNativeStream`) → the byte limit and `Content-Length` check → `storeLines`, whose sink takes the chunks in
 * `writev` batches, copies the lines already in canonical form into the parts as they are and encodes the others
 * again (the canonical pass-through), handing each buffer back to the pool once its lines are in the parts.
 * Resolves with the manifest; on any failure nothing of the attempt is left behind, and the rest of the body is
 * read and discarded first, so that the client, still sending, receives the error.
 *
 * @example
 * ```ts
 * import { R2Store } from "../store/r2-store.ts";
 * import type { DrainpipeEnv } from "./env.ts";
 * declare const request: Request;
 * declare const env: DrainpipeEnv;
 * const manifest = await storeRequestBody(request, {
 *   store: new R2Store(env.BUCKET),
 *   name: "primes",
 *   maxPartBytes: 10 * 1024 * 1024,
 *   maxUploadBytes: 1 << 30,
 *   maxNumbers: 200_000_000,
 * });
 * ```
 */
export async function storeRequestBody(request: Request, options: StoreRequestBodyOptions): Promise<Manifest> {
  const { maxUploadBytes, through, pace, ...storeOptions } = options;
  const declared = declaredLength(request, maxUploadBytes);
  const pool = new BufferPool({ bufferSize: DEFAULT_CHUNK_SIZE, maxFree: 2 });
  // A refused body is drained (up to its declared length, within the limit) before the error answer goes
  // out: clients and proxies that send the whole body before reading the response would lose the answer.
  const drainOnCancel = Math.min(declared ?? maxUploadBytes, maxUploadBytes);
  const bytes = requestBytes(request, { pool, drainOnCancel, pace });
  const limit = limitBytes(maxUploadBytes, declared);
  // Settles once the body has been read to its end, or cancelled (drained) after a failure further down; its
  // failure is storeNumbers' failure too, so it is only waited for.
  const reading = bytes.pipeTo(limit.writable).catch(() => undefined);
  let checked = limit.readable;
  for (const stage of through ?? []) checked = checked.pipeThrough(stage);
  try {
    return await storeLines(checked, {
      ...storeOptions,
      releaseChunk: (chunk) => pool.release(chunk),
      source: ({ bytes, lines, canonical }) => ({ kind: "upload", bytes, lines, canonical }),
    });
  } catch (error) {
    await reading;
    // A pipe that failed downstream cancels its source, which then reads as closed; a body that failed itself
    // (too slow, ended before the bytes its Content-Length declares, or the client went away) reads as errored.
    const outcome = await outcomeOf(bytes);
    if (outcome.failed && outcome.reason instanceof ReadTimeoutError) throw outcome.reason;
    if (declared !== undefined && outcome.failed) {
      throw new HttpError(
        400,
        "length-mismatch",
        `Cannot accept the body: it ended before the ${declared} bytes its Content-Length declares`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Whether `stream`, no longer locked, ended in error (and with which) rather than closed or cancelled. */
function outcomeOf(stream: ReadableStream<Uint8Array>): Promise<{ failed: boolean; reason?: unknown }> {
  return stream.getReader().closed.then(
    () => ({ failed: false }),
    (reason: unknown) => ({ failed: true, reason }),
  );
}
