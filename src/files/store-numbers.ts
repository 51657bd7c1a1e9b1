import type { ParseStats } from "../numbers/number-parser.ts";
import { manifestKey, newUploadId, uploadPrefix } from "../split/object-keys.ts";
import { type PartRecord, PartSplitter } from "../split/part-splitter.ts";
import { SplitLinesWritableStream } from "../split/split-lines-writable-stream.ts";
import { type NumberChunk, SplitWritableStream } from "../split/split-writable-stream.ts";
import { deleteAll } from "../store/list-all.ts";
import type { ObjectStore } from "../store/object-store.ts";
import type { ReadableStream } from "../streams/engine/readable-stream.ts";
import { assertValidName } from "./file-name.ts";
import { buildManifest, type Manifest, type ManifestSource } from "./manifest.ts";
import { readManifestVersion } from "./read-manifest.ts";

/** Options of {@linkcode storeNumbers}. */
export interface StoreNumbersOptions {
  /** Where parts and manifest go. */
  store: ObjectStore;
  /** The file name (see `assertValidName`). */
  name: string;
  /** Size limit of one part in bytes. */
  maxPartBytes: number;
  /** Multipart chunk size (see `PartSplitter`). */
  chunkBytes?: number;
  /** Uploads in flight at once (see `PartSplitter`). */
  maxInFlight?: number;
  /** Most numbers accepted (see `PartSplitter`). */
  maxNumbers?: number;
  /** Lines between two entries of the line index (see `PartSplitter`). */
  lineIndexEvery?: number;
  /** Chunks queued before backpressure (see `SplitWritableStream`); pass a few for large batches. */
  highWaterMark?: number;
  /** Describes where the numbers came from; called once every number has been written. */
  source: () => ManifestSource;
  /** The attempt's upload id, when something else admitted it (a file coordinator); default: a fresh one. */
  uploadId?: string;
  /**
   * Makes the complete manifest the file's current version. Default: {@linkcode publishManifest}, a
   * compare-and-swap on `<name>/manifest.json` that then deletes the replaced version's parts. A file
   * coordinator passes its own, which also keeps replaced parts while someone reads them.
   */
  publish?: (manifest: Manifest) => Promise<void>;
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
 * The protocol makes a result all-or-nothing: parts are written under the attempt's upload id, and the
 * manifest is published last (`options.publish`; by default a single-object compare-and-swap that then deletes
 * the replaced version's parts), so readers see the old manifest or the new one, never a mix. On any failure
 * (the stream errors, a write fails, the publication fails) the attempt's parts are deleted, its multipart
 * writes aborted, and a {@linkcode StoreNumbersError} is thrown with the failure as `cause`.
 *
 * @example
 * ```ts
 * declare const store: ObjectStore;
 * declare const body: ReadableStream<Uint8Array>;
 * const parser = new LineToNumberBatchStream();
 * const manifest = await storeNumbers(body.pipeThrough(parser), {
 *   store,
 *   name: "primes",
 *   maxPartBytes: 10 * 1024 * 1024,
 *   source: () => ({ kind: "upload", ...parser.stats }),
 * });
 * ```
 */
export function storeNumbers<T extends NumberChunk>(
  numbers: ReadableStream<T>,
  options: StoreNumbersOptions,
): Promise<Manifest> {
  return store(options, (splitter) => {
    const sink = new SplitWritableStream<T>(splitter, options.highWaterMark);
    return { written: numbers.pipeTo(sink), parts: sink.parts, source: options.source };
  });
}

/** Options of {@linkcode storeLines}. */
export interface StoreLinesOptions extends Omit<StoreNumbersOptions, "source" | "highWaterMark"> {
  /** Describes where the lines came from, given what the parser saw; called once every line has been written. */
  source: (stats: ParseStats) => ManifestSource;
  /** Called with every byte chunk once its lines are in the parts (see `SplitLinesWritableStream`). */
  releaseChunk?: ((chunk: Uint8Array) => void) | undefined;
}

/**
 * {@linkcode storeNumbers} for bytes of newline-separated decimal integers (the grammar of `NumberParser`), through
 * the canonical pass-through (`SplitLinesWritableStream`): lines already in canonical form are copied into the parts
 * as they are, the others parsed and encoded again, so the stored file is the same as parsing every line and
 * storing its number would give. Same protocol, same all-or-nothing result; a malformed line fails the attempt with
 * the `NumberParseError` as `cause`.
 *
 * @example
 * ```ts
 * declare const store: ObjectStore;
 * declare const body: ReadableStream<Uint8Array>;
 * const manifest = await storeLines(body, {
 *   store,
 *   name: "primes",
 *   maxPartBytes: 10 * 1024 * 1024,
 *   source: ({ bytes, lines, canonical }) => ({ kind: "upload", bytes, lines, canonical }),
 * });
 * ```
 */
export function storeLines(bytes: ReadableStream<Uint8Array>, options: StoreLinesOptions): Promise<Manifest> {
  return store(options, (splitter) => {
    const sink = new SplitLinesWritableStream(splitter, { releaseChunk: options.releaseChunk });
    return { written: bytes.pipeTo(sink), parts: sink.parts, source: () => options.source(sink.stats) };
  });
}

/** What {@linkcode store} runs: the pipe into the splitter's sink, its parts, and the manifest's source. */
interface Writing {
  written: Promise<void>;
  parts: Promise<PartRecord[]>;
  source: () => ManifestSource;
}

/** The protocol of {@linkcode storeNumbers} and {@linkcode storeLines} around the pipe that `write` starts. */
async function store(
  options: Omit<StoreNumbersOptions, "source" | "highWaterMark">,
  write: (splitter: PartSplitter) => Writing,
): Promise<Manifest> {
  const { store, maxPartBytes } = options;
  const name = assertValidName(options.name);
  const uploadId = options.uploadId ?? newUploadId();
  const { chunkBytes, maxInFlight, maxNumbers, lineIndexEvery } = options;
  const publish = options.publish ?? ((manifest: Manifest) => publishManifest(store, manifest));
  const splitter = new PartSplitter({
    store,
    name,
    uploadId,
    maxPartBytes,
    chunkBytes,
    maxInFlight,
    maxNumbers,
    lineIndexEvery,
  });
  try {
    const writing = write(splitter);
    await writing.written;
    const parts = await writing.parts;
    const source = writing.source();
    const { sorted } = splitter;
    const manifest = buildManifest({ name, uploadId, maxPartBytes, source, parts, sorted, lineIndexEvery });
    await publish(manifest);
    return manifest;
  } catch (error) {
    const cleanupErrors: unknown[] = [];
    await splitter.abort().catch((cleanupError: unknown) => cleanupErrors.push(cleanupError));
    await deleteAll(store, uploadPrefix(name, uploadId)).catch((cleanupError: unknown) =>
      cleanupErrors.push(cleanupError),
    );
    throw new StoreNumbersError(name, uploadId, error, cleanupErrors);
  }
}

/** How often {@linkcode publishManifest} retries when concurrent uploads keep replacing the manifest. */
const PUBLISH_ATTEMPTS = 16;

/**
 * Writes `manifest` as the file's current version with a compare-and-swap on the manifest object, then
 * deletes the parts of the version it replaced (a failure there leaves unreferenced leftovers, not a broken
 * file). When another upload of the same name replaced the manifest between our read and our write, the write
 * is refused and retried against the new current version, so each publication replaces exactly the version it
 * read: the last upload to finish wins. Without a coordinator, a reader of the replaced version may be cut
 * short: the worker publishes through its file coordinator instead.
 */
async function publishManifest(store: ObjectStore, manifest: Manifest): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  for (let attempt = 1; attempt <= PUBLISH_ATTEMPTS; attempt++) {
    const current = await readManifestVersion(store, manifest.name);
    const written = await store.putIfMatch(manifestKey(manifest.name), bytes, current?.etag ?? null);
    if (!written) continue;
    if (current) await deleteAll(store, uploadPrefix(manifest.name, current.manifest.uploadId)).catch(() => undefined);
    return;
  }
  throw new Error(
    `Cannot publish the manifest of "${manifest.name}": it changed under ${PUBLISH_ATTEMPTS} attempts in a row`,
  );
}
