import { assertValidName } from "./file-name.ts";
import { deleteAll } from "./list-all.ts";
import { buildManifest, type Manifest, type ManifestSource } from "./manifest.ts";
import { manifestKey, newUploadId, uploadPrefix } from "./object-keys.ts";
import type { ObjectStore } from "./object-store.ts";
import { PartSplitter } from "./part-splitter.ts";
import { readManifest } from "./read-manifest.ts";
import { type NumberChunk, SplitWritableStream } from "./split-writable-stream.ts";

/** Options of {@linkcode storeNumbers}. */
export interface StoreNumbersOptions {
  /** Where parts and manifest go. */
  store: ObjectStore;
  /** The file name (see `assertValidName`). */
  name: string;
  /** Size limit of one part in bytes. */
  maxPartBytes: number;
  /** Multipart segment size (see `PartSplitter`). */
  segmentBytes?: number;
  /** Uploads in flight at once (see `PartSplitter`). */
  maxInFlight?: number;
  /** Describes where the numbers came from; called once every number has been written. */
  source: () => ManifestSource;
}

/**
 * Storing a file failed. Nothing of the attempt is left behind: its parts were deleted and its multipart
 * writes aborted, and the previous version of the file (if any) is untouched. The failure is the `cause`.
 */
export class StoreNumbersError extends Error {
  override name = "StoreNumbersError";
  /** The failed attempt's upload id. */
  readonly uploadId: string;
  /** Errors met while cleaning up after the failure (empty when cleanup succeeded). */
  readonly cleanupErrors: unknown[];

  /** Builds the error for the attempt `uploadId` of `name`. */
  constructor(name: string, uploadId: string, cause: unknown, cleanupErrors: unknown[]) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot store "${name}": ${detail}`, { cause });
    this.uploadId = uploadId;
    this.cleanupErrors = cleanupErrors;
  }
}

/**
 * Splits a stream of numbers into newline-aligned parts in `store` and records them in `<name>/manifest.json`.
 *
 * The protocol makes a result all-or-nothing: parts are written under a fresh upload id, the manifest is
 * written last (a single-object write, so readers see the old manifest or the new one, never a mix), and only
 * then are the previous version's parts deleted. On any failure (the stream errors, a write fails, the
 * manifest write fails) the attempt's parts are deleted, its multipart writes aborted, and a
 * {@linkcode StoreNumbersError} is thrown with the failure as `cause`.
 *
 * @example
 * ```ts
 * const parser = new LineToNumberBatchStream();
 * const manifest = await storeNumbers(body.pipeThrough(parser), {
 *   store,
 *   name: "primes",
 *   maxPartBytes: 10 * 1024 * 1024,
 *   source: () => ({ kind: "upload", ...parser.stats }),
 * });
 * ```
 */
export async function storeNumbers(
  numbers: ReadableStream<NumberChunk>,
  options: StoreNumbersOptions,
): Promise<Manifest> {
  const { store, maxPartBytes } = options;
  const name = assertValidName(options.name);
  const uploadId = newUploadId();
  const splitter = new PartSplitter({
    store,
    name,
    uploadId,
    maxPartBytes,
    ...(options.segmentBytes === undefined ? {} : { segmentBytes: options.segmentBytes }),
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
  });
  let manifest: Manifest;
  let previous: Manifest | null;
  try {
    const sink = new SplitWritableStream(splitter);
    await numbers.pipeTo(sink);
    const parts = await sink.parts;
    manifest = buildManifest({ name, uploadId, maxPartBytes, source: options.source(), parts });
    previous = await readManifest(store, name);
    await store.put(manifestKey(name), new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
  } catch (error) {
    const cleanupErrors: unknown[] = [];
    await splitter.abort().catch((cleanupError: unknown) => cleanupErrors.push(cleanupError));
    await deleteAll(store, uploadPrefix(name, uploadId)).catch((cleanupError: unknown) =>
      cleanupErrors.push(cleanupError),
    );
    throw new StoreNumbersError(name, uploadId, error, cleanupErrors);
  }
  if (previous && previous.uploadId !== uploadId) {
    await deleteAll(store, uploadPrefix(name, previous.uploadId)).catch(() => undefined);
  }
  return manifest;
}
