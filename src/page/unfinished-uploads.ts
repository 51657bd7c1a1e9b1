/**
 * The uploads this browser started and did not finish (the page was closed or reloaded, the upload paused or
 * failed): tus-js-client keeps each one's upload URLs in `localStorage` under the upload's fingerprint, which
 * Uppy's tus plugin makes from the Uppy file id (`tus-<file id>-<endpoint>`). Adding the same file again gives
 * the same file id, so the plugin finds the entry and continues those uploads where the worker stopped.
 *
 * @module
 */
import { defaultOptions, Upload } from "tus-js-client";

/** An upload found in the browser's storage. */
export interface UnfinishedUpload {
  /** The storage key of the entry (to forget it). */
  key: string;
  /** The file's name as the upload's metadata gives it. */
  name: string;
  /** The file's size in bytes, when recorded. */
  size: number | null;
  /** When the upload was created (ISO 8601). */
  createdAt: string;
  /** The Uppy file id the entry belongs to. */
  fileId: string;
  /** The tus upload URLs: one per partial upload, or the single upload's. */
  urls: string[];
}

/**
 * The unfinished uploads of Uppy instance `uppyId` to the tus `endpoint`, oldest first.
 *
 * @example
 * ```ts
 * declare const pageOrigin: string; // location.origin
 * for (const upload of await findUnfinishedUploads("drainpipe", `${pageOrigin}/tus`)) console.log(upload.name);
 * ```
 */
export async function findUnfinishedUploads(uppyId: string, endpoint: string): Promise<UnfinishedUpload[]> {
  const prefix = `tus::tus-${uppyId}-`;
  const suffix = `-${endpoint}`;
  const found: UnfinishedUpload[] = [];
  for (const entry of await defaultOptions.urlStorage.findAllUploads()) {
    const key = entry.urlStorageKey;
    if (!key.startsWith(prefix)) continue;
    const fingerprint = key.slice("tus::".length, key.lastIndexOf("::"));
    if (!fingerprint.endsWith(suffix)) continue;
    const urls = entry.parallelUploadUrls ?? (entry.uploadUrl ? [entry.uploadUrl] : []);
    found.push({
      key,
      name: entry.metadata?.filename ?? entry.metadata?.name ?? "(unnamed)",
      size: entry.size,
      createdAt: entry.creationTime,
      fileId: fingerprint.slice("tus-".length, -suffix.length),
      urls,
    });
  }
  return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Gives up `upload`: asks the worker to terminate its tus uploads (`DELETE`, with `headers`; one the worker no
 * longer has is fine) and removes its entry from the browser's storage.
 */
export async function forgetUnfinishedUpload(upload: UnfinishedUpload, headers: Record<string, string>): Promise<void> {
  await Promise.allSettled(upload.urls.map((url) => Upload.terminate(url, { headers, retryDelays: null })));
  await defaultOptions.urlStorage.removeUpload(upload.key);
}
