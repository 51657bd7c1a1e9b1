/**
 * One `POST` of a whole file, streamed as it is read, with a progress bar: what `upload` does with a file within
 * the worker's limit, and what the demo and the benchmarks run.
 *
 * @module
 */
import type { Manifest } from "../../files/manifest.ts";
import { badLineError } from "../bad-line.ts";
import type { InputStream } from "../local-file.ts";
import { countBytes, startProgress } from "../progress.ts";
import type { WorkerClient } from "../worker-client.ts";
import { type UploadResult, uploadResult } from "./upload-result.ts";

/** Options of {@linkcode uploadFile}. */
export interface UploadFileOptions {
  /** The name to store the file under (`upload` defaults it to `defaultName` of the path). */
  name: string;
  /** The part size limit; the worker's default when absent. */
  maxPartBytes?: number | undefined;
  /** Whether to draw a progress bar on stderr. */
  progress: boolean;
  /** A token naming this attempt to the worker (see `WorkerClient.uploads`). */
  attempt?: string | undefined;
  /** Aborts the upload. */
  signal?: AbortSignal | undefined;
  /** Called once the whole file has been handed to the request: what is left is the worker's answer. */
  onAllSent?: (() => void) | undefined;
}

/**
 * Streams a local file (or standard input, chunked) to the worker as it is read (never holding it whole) and
 * returns the manifest and throughput, over the time the progress bar counts: from its start to the manifest.
 *
 * @throws {CliError} when the file cannot be read or the worker refuses it (a `WorkerError` with the line and column
 * of bad input).
 *
 * @example
 * ```ts
 * import { openFileStream } from "../local-file.ts";
 * import type { WorkerClient } from "../worker-client.ts";
 * declare const client: WorkerClient;
 * const { manifest } = await uploadFile(client, await openFileStream("primes.txt"), {
 *   name: "primes",
 *   progress: false,
 * });
 * ```
 */
export async function uploadFile(
  client: WorkerClient,
  source: InputStream,
  options: UploadFileOptions,
): Promise<UploadResult> {
  const { path, stream, size } = source;
  const { name } = options;
  const progress = startProgress({ label: "upload", total: size, unit: "bytes", enabled: options.progress });
  let manifest: Manifest;
  let sent = 0;
  let seconds: number;
  try {
    const body = countBytes(stream, (bytes) => {
      sent = bytes;
      progress.update(bytes);
      if (bytes === size) options.onAllSent?.();
    });
    manifest = await client.upload(name, body, {
      size,
      maxPartBytes: options.maxPartBytes,
      attempt: options.attempt,
      signal: options.signal,
    });
  } catch (error) {
    throw badLineError(error, path) ?? error;
  } finally {
    seconds = progress.stop();
  }
  return uploadResult(path, manifest, sent, seconds);
}
