/**
 * Upload sessions under a file's coordinator: a file sent as segments, each written by its own attempt inside
 * the session's folder, accepted one by one (a segment sent again replaces the earlier write), then completed
 * into one version like a single upload, or aborted, or removed when it expires.
 *
 * @module
 */
import { assembleSegments, FileLimitError, SegmentsIncompleteError } from "../files/assemble-segments.ts";
import { type Manifest, parseManifest } from "../files/manifest.ts";
import { parseSegmentSummary, type SegmentSummary } from "../files/segment-summary.ts";
import { newUploadId, uploadPrefix } from "../split/object-keys.ts";
import { deleteAll } from "../store/list-all.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";
import type { SessionRecord } from "./file-ledger.ts";
import type { UploadLease, Uploads } from "./uploads.ts";
import type { Versions } from "./versions.ts";
import { type ConditionFailed, conditionHolds, type WriteCondition } from "./write-condition.ts";

/** An upload session as the coordinator reports it. */
export interface SessionView {
  /** The session's id: the folder of its segments, and the version's upload id once completed. */
  sessionId: string;
  /** `open` or `completed`. */
  state: "open" | "completed";
  /** The part size limit of every segment. */
  maxPartBytes: number;
  /** When it was opened (ms since the epoch). */
  createdAt: number;
  /** When it expires (ms since the epoch). */
  expiresAt: number;
  /** The received segments' summaries, in index order. */
  segments: SegmentSummary[];
}

/**
 * The outcome of accepting a segment's write: accepted (with the earlier write of the same index it replaced,
 * now deleted), or refused because the write's lease ended or the session is no longer open.
 */
export type AcceptResult = { accepted: true; replaced: string | null } | { accepted: false; reason: "expired" };

/** The outcome of completing a session. */
export type CompleteResult =
  | { completed: true; manifest: Manifest }
  | { completed: false; reason: "not-found" }
  | { completed: false; reason: "incomplete"; code: "missing-segments" | "cut-lines"; indexes: number[] }
  | { completed: false; reason: "too-large" | "storage-failed"; detail: string }
  | ({ completed: false } & ConditionFailed);

/** Limits of a whole file assembled from segments. */
export interface FileLimits {
  /** Largest file in bytes. */
  maxBytes: number;
  /** Most numbers in a file. */
  maxNumbers: number;
}

/**
 * The upload sessions of one file.
 *
 * @example
 * ```ts
 * import type { SegmentSummary } from "../files/segment-summary.ts";
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * import { Uploads } from "./uploads.ts";
 * import { Versions } from "./versions.ts";
 * declare const file: CoordinatedFile;
 * declare const summary: SegmentSummary;
 * const versions = new Versions(file);
 * const sessions = new Sessions(file, new Uploads(file, versions), versions);
 * const { sessionId } = sessions.open(1 << 20, 86_400_000)!;
 * const write = sessions.beginSegment(sessionId, 0, 60_000)!;
 * await sessions.accept(sessionId, 0, write.uploadId, summary);
 * await sessions.complete(sessionId, 1, { maxBytes: 1e9, maxNumbers: 1e8 }, 60_000);
 * ```
 */
/** Most sessions one name may have open at once. */
export const MAX_OPEN_SESSIONS = 16;

export class Sessions {
  readonly #file: CoordinatedFile;
  readonly #uploads: Uploads;
  readonly #versions: Versions;

  /** The sessions of `file`, whose segments are written as `uploads` and published into `versions`. */
  constructor(file: CoordinatedFile, uploads: Uploads, versions: Versions) {
    this.#file = file;
    this.#uploads = uploads;
    this.#versions = versions;
  }

  /**
   * Opens a session, open for `ttlMs`; every segment is split into parts of `maxPartBytes`. `null` when the name
   * already has {@linkcode MAX_OPEN_SESSIONS} open sessions.
   */
  open(maxPartBytes: number, ttlMs: number): SessionView | null {
    if (this.listOpen().length >= MAX_OPEN_SESSIONS) return null;
    const createdAt = Date.now();
    const session = {
      sessionId: newUploadId(),
      state: "open",
      maxPartBytes,
      createdAt,
      expiresAt: createdAt + ttlMs,
      manifest: "",
    } as const;
    this.#file.ledger.addSession(session);
    return this.#view(session);
  }

  /** The session `sessionId` with its received segments, or `null` when it is unknown or expired. */
  get(sessionId: string): SessionView | null {
    const session = this.#file.ledger.session(sessionId);
    return session && session.expiresAt > Date.now() ? this.#view(session) : null;
  }

  /** The open sessions, oldest first. */
  listOpen(): SessionView[] {
    const now = Date.now();
    return this.#file.ledger
      .sessions()
      .filter((session) => session.state === "open" && session.expiresAt > now)
      .map((session) => this.#view(session));
  }

  /**
   * Admits a write of segment `index` of the open session `sessionId` with a lease of `leaseMs`: its parts go
   * under the returned upload id, a folder inside the session's. `null` when the session is not open.
   */
  beginSegment(sessionId: string, index: number, leaseMs: number): UploadLease | null {
    const session = this.#file.ledger.session(sessionId);
    if (session?.state !== "open" || session.expiresAt <= Date.now()) return null;
    const uploadId = `${sessionId}/s${String(index).padStart(5, "0")}-${newUploadId()}`;
    return this.#uploads.admit(leaseMs, { sessionId, uploadId });
  }

  /**
   * Makes the write `uploadId` segment `index` of session `sessionId`, with `summary`; the write it replaces,
   * if any, is deleted. Refused when the write's lease ended or the session is no longer open; the caller then
   * abandons the write.
   */
  async accept(sessionId: string, index: number, uploadId: string, summary: SegmentSummary): Promise<AcceptResult> {
    const { ledger, store, name } = this.#file;
    const attempt = ledger.attempt(uploadId);
    if (attempt?.sessionId !== sessionId || ledger.session(sessionId)?.state !== "open") {
      return { accepted: false, reason: "expired" };
    }
    const replaced = ledger.putSegment(sessionId, { index, attemptId: uploadId, summary: JSON.stringify(summary) });
    ledger.dropAttempt(uploadId);
    if (replaced !== null) await deleteAll(store, uploadPrefix(name, replaced));
    return { accepted: true, replaced };
  }

  /**
   * Completes session `sessionId` as a file of segments 0 … count − 1 and publishes it like a single upload:
   * the version it replaces is retired, kept for `graceMs` for reads that hold no lease. Completing a completed
   * session answers the same manifest. When `condition` does not hold of the current version, the session is
   * removed with everything it wrote.
   */
  async complete(
    sessionId: string,
    count: number,
    limits: FileLimits,
    graceMs: number,
    condition?: WriteCondition,
  ): Promise<CompleteResult> {
    const { ledger, store, name } = this.#file;
    const session = ledger.session(sessionId);
    if (!session || session.expiresAt <= Date.now()) return { completed: false, reason: "not-found" };
    if (session.state === "completed") return { completed: true, manifest: parseManifest(session.manifest) };
    const current = ledger.current()?.uploadId ?? null;
    if (!conditionHolds(condition, current)) {
      // Refused for good: what the session wrote goes now, not when it expires.
      await this.#remove(sessionId);
      return { completed: false, reason: "precondition-failed", current };
    }
    const records = ledger.segments(sessionId);
    let manifest: Manifest;
    try {
      manifest = assembleSegments({
        name,
        uploadId: sessionId,
        maxPartBytes: session.maxPartBytes,
        count,
        segments: records.map((record) => parseSegmentSummary(record.summary)),
        maxBytes: limits.maxBytes,
        maxNumbers: limits.maxNumbers,
      });
    } catch (error) {
      if (error instanceof SegmentsIncompleteError) {
        return { completed: false, reason: "incomplete", code: error.code, indexes: error.indexes };
      }
      if (error instanceof FileLimitError) {
        // The session can never complete: what it wrote goes now, not when it expires.
        await this.#remove(sessionId);
        return { completed: false, reason: "too-large", detail: `${error.message}; the session was removed` };
      }
      throw error;
    }
    const text = JSON.stringify(manifest, null, 2);
    const failure = await this.#versions.writeManifest(text);
    if (failure !== null) return { completed: false, reason: "storage-failed", detail: failure };
    ledger.makeCurrent(sessionId, text, this.#versions.keepUntil(graceMs));
    for (const record of records.filter((candidate) => candidate.index >= count)) {
      await deleteAll(store, uploadPrefix(name, record.attemptId));
    }
    ledger.completeSession(sessionId, text);
    await this.#versions.removeUnread();
    return { completed: true, manifest };
  }

  /** Aborts the open session `sessionId`: everything it wrote goes. `false` when it is not open. */
  async abort(sessionId: string): Promise<boolean> {
    if (this.#file.ledger.session(sessionId)?.state !== "open") return false;
    await this.#remove(sessionId);
    return true;
  }

  /**
   * Ends the sessions that expired by `now`: an open one is removed with everything it wrote, a completed one
   * forgotten. Resolves the objects removed.
   */
  async expire(now: number): Promise<number> {
    const { ledger } = this.#file;
    let removed = 0;
    for (const session of ledger.sessions().filter((candidate) => candidate.expiresAt <= now)) {
      if (session.state === "open") removed += await this.#remove(session.sessionId);
      else ledger.dropSession(session.sessionId);
    }
    return removed;
  }

  /** Deletes everything an open session wrote (segments and writes in flight) and forgets it. */
  async #remove(sessionId: string): Promise<number> {
    const { ledger, store, name } = this.#file;
    for (const attempt of ledger.sessionAttempts(sessionId)) await this.#uploads.forget(attempt.uploadId);
    const removed = await deleteAll(store, uploadPrefix(name, sessionId));
    ledger.dropSession(sessionId);
    return removed;
  }

  #view(session: SessionRecord): SessionView {
    return {
      sessionId: session.sessionId,
      state: session.state,
      maxPartBytes: session.maxPartBytes,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      segments: this.#file.ledger.segments(session.sessionId).map((record) => parseSegmentSummary(record.summary)),
    };
  }
}
