/**
 * The uploader: Uppy with its Dashboard (pick or drop files, progress, pause and resume) and its tus plugin,
 * which sends each file to the worker's `/tus` endpoint as up to four partial uploads at once and concatenates
 * them, in chunks of the size the worker's `GET /limits` names (`maxSegmentBytes`).
 *
 * @module
 */
import Uppy, { type Meta, type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import Tus from "@uppy/tus";
import type { ApiClient, WorkerLimits } from "./api-client.ts";
import type { Refusals } from "./refusals.ts";
import type { TokenStore } from "./token-store.ts";

/**
 * The id of the page's Uppy instance. Uppy makes each file's id from it and the file's name, type, size and
 * modification time, and the tus plugin makes the key of the file's entry in `localStorage` from that id: a
 * stable id lets an upload continue after the page is reloaded.
 */
export const UPPY_ID = "drainpipe";

/** Partial uploads sent at once for one large file. */
export const PARALLEL_UPLOADS = 4;

/** The smallest share of a file worth a partial upload of its own: smaller files go as fewer parts. */
const MIN_PARALLEL_PART_BYTES = 1 << 20;

/** The file's metadata the page edits: `name` (the stored name) and an optional `maxPartBytes`. */
export interface UploadMeta extends Meta {
  /** The name to store the file under (the worker replaces characters outside `A–Z a–z 0–9 . _ -`). */
  name: string;
  /** The size limit of one stored part in bytes, in decimal; empty or absent for the worker's default. */
  maxPartBytes?: string;
}

/** What {@linkcode createUploader} needs. */
export interface UploaderOptions {
  /** The element the Dashboard renders into. */
  target: HTMLElement;
  /** The tus endpoint, absolute (`<origin>/tus`). */
  endpoint: string;
  /** The worker's API, for `GET /limits` before each upload. */
  api: ApiClient;
  /** The tab's token, sent with every tus request. */
  tokens: TokenStore;
  /** Where the worker's refusals of tus requests are kept as they arrive. */
  refusals: Refusals;
  /** Called when the limits cannot be read (no token, a wrong one, the worker unreachable): the upload stops. */
  onLimitsFailed(error: unknown): void;
}

/**
 * Creates the page's Uppy instance. Before each upload it asks the worker for its limits and sets the tus chunk
 * size to `maxSegmentBytes`; each file goes with the tus metadata `name` and `filename` (both the name given in
 * the Dashboard, the file's own by default) and `maxPartBytes` when one is given, as
 * {@linkcode PARALLEL_UPLOADS} partial uploads (fewer for a small file). The upload URLs stay in `localStorage`
 * until the file is stored, so the same file added again after a reload continues where it stopped.
 *
 * @example
 * ```ts
 * import type { ApiClient, WorkerLimits } from "./api-client.ts";
 * import { Refusals } from "./refusals.ts";
 * import type { TokenStore } from "./token-store.ts";
 * declare const target: HTMLElement;
 * declare const api: ApiClient;
 * declare const tokens: TokenStore;
 * const uppy = createUploader({
 *   target,
 *   endpoint: "http://127.0.0.1:8787/tus",
 *   api,
 *   tokens,
 *   refusals: new Refusals(),
 *   onLimitsFailed: (error) => console.error(error),
 * });
 * uppy.on("upload-success", (file) => console.log(`stored ${file?.name}`));
 * ```
 */
export function createUploader(options: UploaderOptions): Uppy<UploadMeta> {
  const { api, tokens } = options;
  const uppy = new Uppy<UploadMeta>({ id: UPPY_ID, autoProceed: false, allowMultipleUploadBatches: true });
  uppy.use(Dashboard<UploadMeta, Record<string, never>>, {
    inline: true,
    target: options.target,
    width: "100%",
    height: 380,
    proudlyDisplayPoweredByUppy: false,
    // The page's own progress line says bytes, MB/s and time left in the units of the rest of drainpipe.
    hideProgressDetails: true,
    singleFileFullScreen: false,
    showRemoveButtonAfterComplete: true,
    note: "Number files: one integer per line. Large files go in parallel parts and survive a reload.",
    metaFields: [
      { id: "name", name: "Stored name", placeholder: "the file's name" },
      { id: "maxPartBytes", name: "Max part bytes", placeholder: "optional, e.g. 10485760" },
    ],
  });
  uppy.use(Tus<UploadMeta, Record<string, never>>, {
    endpoint: options.endpoint,
    headers: () => tokens.authorization(),
    parallelUploads: PARALLEL_UPLOADS,
    // An entry left after success would make the same file, added again, "resume" a finished upload.
    removeFingerprintOnSuccess: true,
    retryDelays: [0, 1000, 3000, 5000],
    allowedMetaFields: ["name"],
    onAfterResponse: options.refusals.record,
  });

  uppy.addPreProcessor(async (fileIDs) => {
    let limits: WorkerLimits;
    try {
      limits = await api.limits();
    } catch (error) {
      options.onLimitsFailed(error);
      throw error;
    }
    uppy.getPlugin("Tus")?.setOptions({ chunkSize: limits.maxSegmentBytes });
    for (const id of fileIDs) {
      const file = uppy.getFile(id);
      if (file.meta.maxPartBytes !== undefined)
        uppy.setFileMeta(id, { ...file.meta, maxPartBytes: maxPartBytesOf(file) });
      uppy.setFileState(id, { tus: { ...file.tus, ...perFileOptions(file, limits.plan) } });
    }
  });
  return uppy;
}

/**
 * The tus options of one file: its partial uploads and the metadata it sends. On Workers Free (`plan`), one upload
 * in sequence: the request that joins partial uploads stores the whole file, more than a Free request may do.
 */
function perFileOptions(
  file: UppyFile<UploadMeta, Record<string, never>>,
  plan: WorkerLimits["plan"],
): {
  parallelUploads: number;
  allowedMetaFields: string[];
} {
  const size = file.size ?? 0;
  const most = plan === "free" ? 1 : PARALLEL_UPLOADS;
  const parallelUploads = Math.max(1, Math.min(most, Math.floor(size / MIN_PARALLEL_PART_BYTES)));
  // A field in the list goes even when the file has none (as the text "undefined"): name `maxPartBytes` only
  // when it is given.
  const fields = maxPartBytesOf(file) === "" ? ["name"] : ["name", "maxPartBytes"];
  return { parallelUploads, allowedMetaFields: fields };
}

/** The file's `maxPartBytes` as typed, without surrounding blanks; `""` when there is none. */
function maxPartBytesOf(file: UppyFile<UploadMeta, Record<string, never>>): string {
  return String(file.meta.maxPartBytes ?? "").trim();
}
