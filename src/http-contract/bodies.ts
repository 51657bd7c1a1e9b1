/**
 * The JSON bodies of the HTTP API's requests and replies, declared once: the worker's routes build them, and the
 * clients (the CLI's `WorkerClient`, the page's `ApiClient`) read them through the parsers of `reply-parsers.ts`.
 * Manifests, file summaries, search results and segment summaries are the files layer's own types.
 *
 * @module
 */
import type { FileSummary } from "../files/file-catalog.ts";
import type { SearchResult } from "../files/line-reads.ts";
import type { Manifest } from "../files/manifest.ts";
import type { SegmentSummary } from "../files/segment-summary.ts";
import type { ErrorCode } from "./error-code.ts";

/** `GET /files/:name` answers a `Manifest`, `GET /files/:name/search` a `SearchResult`: the files layer's types. */
export type { FileSummary, Manifest, SearchResult };

// ——— Files ———

/** `GET /files`: the complete files, in name order. */
export interface FileList {
  /** One entry per file of the page. */
  files: FileSummary[];
  /** Pass back as `?cursor=` for the next page; `null` on the last page. */
  cursor: string | null;
}

/** `DELETE /files/:name` on a name that held only leftovers of dead uploads (`200`). */
export interface RemnantsRemoved {
  /** The file name. */
  name: string;
  /** Always `false`: there was no complete file. */
  removed: false;
  /** How many leftover objects went. */
  remnants: number;
}

/** `POST /sweep`: what a sweep of the whole bucket removed. */
export interface SweepResult {
  /** File names whose coordinator swept them. */
  names: number;
  /** Objects removed in all. */
  removed: number;
  /** Pass back as `?cursor=` to sweep on; `null` once the whole bucket is swept. */
  cursor: string | null;
}

/**
 * `GET /limits`: what one request to the worker may carry, from its settings alone, so a client can size its
 * requests before it sends any.
 */
export interface WorkerLimits {
  /** The Workers plan the worker keeps the limits of (`PLAN`). */
  plan: "free" | "paid";
  /** Subrequests one request may make (`SUBREQUEST_LIMIT`, or the plan's). */
  subrequests: number;
  /**
   * Largest body one upload request should carry (`MAX_SEGMENT_BYTES`): a file larger than this goes as an upload
   * session, whose segments are at most this (less when small parts need more subrequests than one request has).
   */
  maxSegmentBytes: number;
  /** Largest file accepted, in one request or a session (`MAX_UPLOAD_BYTES`). */
  maxUploadBytes: number;
  /** Most numbers in one file (`MAX_UPLOAD_NUMBERS`). */
  maxUploadNumbers: number;
  /** The part size limit of an upload that names none (`DEFAULT_MAX_PART_BYTES`). */
  defaultMaxPartBytes: number;
  /** Most segments in one upload session. */
  maxSegments: number;
}

// ——— Uploads in flight ———

/** A single upload in flight, as `GET /files/:name/uploads` lists it. */
export interface UploadInFlight {
  /** The worker's id of the attempt (the folder of its parts). */
  attemptId: string;
  /** `writing` while parts stream in, `publishing` once its manifest is being written. */
  state: "writing" | "publishing";
  /** When the attempt began (ISO 8601). */
  startedAt: string;
  /** When the attempt's lease ends unless renewed (ISO 8601). */
  leaseExpiresAt: string;
  /** The client's own name for the attempt, as it sent it in `Drainpipe-Attempt`, or `null`. */
  attempt: string | null;
}

/** An open upload session, as `GET /files/:name/uploads` lists it. */
export interface OpenSessionEntry {
  /** The session's id. */
  sessionId: string;
  /** When it was opened (ISO 8601). */
  createdAt: string;
  /** When it expires unless completed (ISO 8601). */
  expiresAt: string;
  /** How many segments it has received. */
  segments: number;
  /** Segment writes (or tus PATCHes) in flight now. */
  writing: number;
}

/** `GET /files/:name/uploads`: what is in flight for one name. */
export interface UploadsListing {
  /** The file name. */
  name: string;
  /**
   * The id of the upload the current version came from (the manifest's `uploadId`, which its `ETag` quotes), or
   * `null` when the file does not exist.
   */
  current: string | null;
  /** Single uploads in flight, oldest first. */
  uploads: UploadInFlight[];
  /** Open upload sessions, oldest first. */
  sessions: OpenSessionEntry[];
  /** How many reads of content are open. */
  reads: number;
}

// ——— Upload sessions ———

/** An upload session, as `POST /files/:name/uploads` answers it (`201`). */
export interface SessionDescription {
  /** The session's id: the `:sessionId` of the session's routes. */
  sessionId: string;
  /** The file name. */
  name: string;
  /** `open` while segments may arrive, `completed` once published. */
  state: "open" | "completed";
  /** The part size limit of every segment. */
  maxPartBytes: number;
  /** Largest segment the worker accepts, in bytes. */
  segmentMaxBytes: number;
  /** When it was opened (ISO 8601). */
  createdAt: string;
  /** When it expires unless completed (ISO 8601). */
  expiresAt: string;
}

/** A received segment as clients see it (`201` of `PUT …/segments/:index`): its part count, not its parts. */
export type SegmentReceipt = Omit<SegmentSummary, "parts"> & {
  /** How many parts the segment was stored as. */
  parts: number;
};

/** `GET /files/:name/uploads/:sessionId`: the session with what a client needs to resume it. */
export interface SessionWithSegments extends SessionDescription {
  /** Every received segment, in index order. */
  segments: SegmentReceipt[];
}

/** The body of `POST /files/:name/uploads/:sessionId/complete`. */
export interface CompleteSessionRequest {
  /** How many segments the file has: 0 … segments − 1. */
  segments: number;
}

// ——— Errors ———

/**
 * Every error reply: `{ error, detail, … }`, a code and what went wrong in words, with further fields for some
 * codes. A field beside `error` and `detail` is a fact about the refusal, never a second description of it.
 */
export interface ErrorBody {
  /** A stable, machine-readable code such as `invalid-number`. */
  error: ErrorCode;
  /** What went wrong, in words. */
  detail: string;
  /** `invalid-number`: the 1-based line of the bad input. */
  line?: number;
  /** `invalid-number`: the 1-based column (in bytes) of the bad input. */
  column?: number;
  /** `invalid-number`: the 0-based byte offset of the bad input; `offset-mismatch`: the upload's offset. */
  offset?: number;
  /** `invalid-number`: why the line is not a number. */
  reason?: string;
  /** A refused segment: its index. */
  segment?: number;
  /** `missing-segments`: the indexes that are missing. */
  missing?: number[];
  /** `cut-lines`: the segments that do not end with a line break. */
  segments?: number[];
  /** `range-not-satisfiable`: the size in bytes of what the range was asked of. */
  size?: number;
  /** `lines-not-satisfiable`: how many lines the file has. */
  lines?: number;
  /** `precondition-failed`: the `ETag` of the version that is current, or `null` when there is none. */
  etag?: string | null;
  /** `over-budget`: subrequests the refused work needs. */
  needed?: number;
  /** `over-budget`: subrequests the request had left. */
  available?: number;
  /** `over-budget`: the request's whole subrequest limit. */
  limit?: number;
  /** `subrequest-limit`: the subrequests the worker was set to count on. */
  subrequests?: number;
  /** `body-too-slow`: the bytes that had arrived. */
  bytes?: number;
  /** `body-too-slow`: how long the worker waited for more, in milliseconds. */
  timeoutMs?: number;
  /** `patch-too-large` (tus): the largest chunk accepted; `too-many-parts` (tus): the smallest that fits, in bytes. */
  chunkSize?: number;
}
