/**
 * tus uploads under a coordinator (`/tus/<id>`, tus 1.0.0). Each one is an upload session of the coordinator's
 * (`sessions.ts`) plus a {@linkcode TusRecord}: the offset reached, the incomplete line it ends in, the lines before
 * it. A PATCH is admitted like a segment write (a lease, its parts in a folder of the session's) and accepted in
 * one step that advances the offset, so that the offset never runs ahead of what is stored; the PATCH that
 * completes a file's upload publishes it like a session's completion.
 *
 * @module
 */
import type { Manifest } from "../files/manifest.ts";
import type { SegmentSummary } from "../files/segment-summary.ts";
import { uploadPrefix } from "../split/object-keys.ts";
import { deleteAll } from "../store/list-all.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";
import type { CompleteResult, FileLimits, Sessions } from "./sessions.ts";
import { parseTusRecord, TUS_RECORD_VERSION, type TusKind, type TusPiece, type TusRecord } from "./tus-record.ts";
import type { Uploads } from "./uploads.ts";
import { type ConditionFailed, conditionHolds, type WriteCondition } from "./write-condition.ts";

/** What a new tus upload is made with. */
export interface TusCreation {
  /** Its id: the last segment of its URL. */
  id: string;
  /** What kind of upload. */
  kind: TusKind;
  /** The file it stores (`file`, `final`), else `null`. */
  name: string | null;
  /** `Upload-Length`, or `null` when deferred. */
  length: number | null;
  /** The `Upload-Metadata` header, as received. */
  metadata: string;
  /** A final upload's `Upload-Concat` value, else `null`. */
  concat: string | null;
  /** `If-Match` / `If-None-Match` of the creation, checked when the file is published. */
  condition: WriteCondition | null;
  /** Part size limit of the file's parts. */
  maxPartBytes: number;
  /** How long the upload may take, from now. */
  ttlMs: number;
}

/** The outcome of beginning a PATCH. */
export type TusBegin =
  | { begun: true; record: TusRecord; attemptId: string }
  | { begun: false; reason: "not-found" }
  | { begun: false; reason: "done"; offset: number }
  | { begun: false; reason: "offset-mismatch"; offset: number }
  | { begun: false; reason: "length-mismatch"; length: number | null };

/** What a finished PATCH of a file's upload stored. */
export interface TusPatchResult {
  /** The offset the PATCH began at. */
  from: number;
  /** The offset reached. */
  offset: number;
  /** `Upload-Length`, when known now (a deferred length given by this PATCH). */
  length: number | null;
  /** The incomplete line the PATCH ended in (base64) and the zeros removed from its leading run. */
  held: string;
  /** Zeros removed from the held line's leading run. */
  heldSkipped: number;
  /** The segment holding the lines the PATCH completed, or `null` when it completed none. */
  segment: SegmentSummary | null;
  /** Whether this PATCH reached `Upload-Length`: the file is then published. */
  completes: boolean;
}

/** The outcome of accepting a PATCH. */
export type TusAccept =
  | { accepted: true; record: TusRecord; manifest: Manifest | null }
  | { accepted: false; reason: "superseded" }
  | { accepted: false; reason: "completion"; completion: Exclude<CompleteResult, { completed: true }> };

/**
 * The tus uploads of one coordinator.
 *
 * @example
 * ```ts
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * import { Sessions } from "./sessions.ts";
 * import { Uploads } from "./uploads.ts";
 * import { Versions } from "./versions.ts";
 * declare const file: CoordinatedFile;
 * const versions = new Versions(file);
 * const uploads = new Uploads(file, versions);
 * const tus = new TusUploads(file, new Sessions(file, uploads, versions), uploads);
 * const record = tus.create({
 *   id: "t1", kind: "file", name: "primes", length: 10, metadata: "", concat: null, condition: null,
 *   maxPartBytes: 1 << 20, ttlMs: 86_400_000,
 * });
 * ```
 */
export class TusUploads {
  readonly #file: CoordinatedFile;
  readonly #sessions: Sessions;
  readonly #uploads: Uploads;

  /** The tus uploads of `file`, held in `sessions`, written as `uploads`. */
  constructor(file: CoordinatedFile, sessions: Sessions, uploads: Uploads) {
    this.#file = file;
    this.#sessions = sessions;
    this.#uploads = uploads;
  }

  /**
   * Creates a tus upload; `null` when the name has as many open sessions as it may. An upload whose condition does
   * not hold of the current version is refused at once (it is checked again when the file is published).
   */
  create(creation: TusCreation): TusRecord | ConditionFailed | null {
    const current = this.#file.ledger.current()?.uploadId ?? null;
    if (creation.condition !== null && !conditionHolds(creation.condition, current)) {
      return { reason: "precondition-failed", current };
    }
    const session = this.#sessions.open(creation.maxPartBytes, creation.ttlMs);
    if (session === null) return null;
    const record = newRecord(creation, session.sessionId, session.createdAt, "open", 0);
    this.#put(record);
    return record;
  }

  /**
   * Records a final upload whose file was published as the version `versionId` (kept, complete, to answer `HEAD`
   * until it expires); resolves with its record.
   */
  recordFinal(creation: TusCreation, versionId: string): TusRecord {
    const record = newRecord(creation, versionId, Date.now(), "done", creation.length ?? 0);
    this.#put(record);
    return record;
  }

  /** The tus upload `id`, or `null` when it is unknown or expired. */
  get(id: string): TusRecord | null {
    const text = this.#file.ledger.tusUpload(id);
    if (text === null) return null;
    const record = parseTusRecord(text);
    return record.expiresAt > Date.now() ? record : null;
  }

  /**
   * Begins a PATCH of upload `id` at `offset` with a lease of `leaseMs`, giving the upload's `length` if it was
   * deferred (else `null`). The PATCH begun last is the one that may finish: an earlier one still streaming is
   * refused when it ends.
   */
  begin(id: string, offset: number, leaseMs: number, length: number | null): TusBegin {
    const record = this.get(id);
    if (record === null) return { begun: false, reason: "not-found" };
    if (record.state === "done") return { begun: false, reason: "done", offset: record.offset };
    if (offset !== record.offset) return { begun: false, reason: "offset-mismatch", offset: record.offset };
    if (length !== null && record.length !== null && length !== record.length) {
      return { begun: false, reason: "length-mismatch", length: record.length };
    }
    const lease = this.#sessions.beginSegment(record.sessionId, record.segments, leaseMs);
    if (lease === null) return { begun: false, reason: "not-found" };
    record.patch = lease.uploadId;
    this.#put(record);
    return { begun: true, record, attemptId: lease.uploadId };
  }

  /**
   * Accepts the PATCH `attemptId` of a file's upload `id`: its segment (if it completed a line), the offset it
   * reached and the line it ended in. The PATCH that completes the upload publishes the file (segments in order),
   * checking the creation's condition, within `limits`, retiring the version it replaces with a grace period of
   * `graceMs`. Refused when a later PATCH was begun, or the upload is gone.
   */
  async acceptPatch(
    id: string,
    attemptId: string,
    result: TusPatchResult,
    limits: FileLimits,
    graceMs: number,
  ): Promise<TusAccept> {
    const record = this.get(id);
    if (record === null || record.state !== "open" || record.patch !== attemptId || record.offset !== result.from) {
      return { accepted: false, reason: "superseded" };
    }
    const before = JSON.stringify({ ...record, patch: null });
    if (result.segment !== null) {
      const accepted = await this.#sessions.accept(record.sessionId, record.segments, attemptId, result.segment);
      if (!accepted.accepted) return { accepted: false, reason: "superseded" };
      record.segments += 1;
      record.parts += result.segment.parts.length;
      record.lines += result.segment.lines;
    } else {
      await this.#uploads.abandon(attemptId);
    }
    record.offset = result.offset;
    record.length = result.length ?? record.length;
    record.held = result.held;
    record.heldSkipped = result.heldSkipped;
    record.patch = null;
    if (!result.completes) {
      this.#put(record);
      return { accepted: true, record, manifest: null };
    }
    const completion = await this.#sessions.complete(
      record.sessionId,
      record.segments,
      limits,
      graceMs,
      record.condition ?? undefined,
    );
    if (!completion.completed) {
      // A refused completion removed the session (it can never complete); a storage failure kept it, so the
      // client can send the last bytes again.
      if (completion.reason === "storage-failed") {
        if (result.segment !== null) await this.#dropSegment(record.sessionId, record.segments - 1, attemptId);
        this.#put(parseTusRecord(before));
      } else {
        await this.remove(id);
      }
      return { accepted: false, reason: "completion", completion };
    }
    record.state = "done";
    this.#put(record);
    return { accepted: true, record, manifest: completion.manifest };
  }

  /**
   * Accepts the PATCH `attemptId` of a partial upload `id`: the piece it stored, from offset `from`; the upload's
   * `length` if it was deferred. Refused when a later PATCH was begun, or the upload is gone.
   */
  acceptPiece(id: string, attemptId: string, from: number, piece: TusPiece, length: number | null): TusAccept {
    const record = this.get(id);
    if (record === null || record.state !== "open" || record.patch !== attemptId || record.offset !== from) {
      return { accepted: false, reason: "superseded" };
    }
    this.#file.ledger.dropAttempt(attemptId);
    if (piece.bytes > 0) record.pieces.push(piece);
    record.offset = from + piece.bytes;
    record.length = length ?? record.length;
    record.patch = null;
    if (record.length !== null && record.offset === record.length) record.state = "done";
    this.#put(record);
    return { accepted: true, record, manifest: null };
  }

  /**
   * Ends upload `id`: a file's or partial upload's session goes with everything it stored (a published file stays);
   * the record is forgotten. `false` when there is no such upload.
   */
  async remove(id: string): Promise<boolean> {
    const record = this.get(id);
    if (record === null) return false;
    if (record.kind !== "final") await this.#sessions.abort(record.sessionId);
    this.#file.ledger.dropTusUpload(id);
    return true;
  }

  /** Forgets the tus uploads that expired by `now` (their sessions expire with them). */
  expire(now: number): void {
    const { ledger } = this.#file;
    for (const id of ledger.expiredTusUploads(now)) ledger.dropTusUpload(id);
  }

  /** Forgets segment `index` of session `sessionId`, written by `attemptId`, and deletes its objects. */
  async #dropSegment(sessionId: string, index: number, attemptId: string): Promise<void> {
    const { ledger, store, name } = this.#file;
    ledger.dropSegment(sessionId, index);
    await deleteAll(store, uploadPrefix(name, attemptId));
  }

  #put(record: TusRecord): void {
    this.#file.ledger.putTusUpload(record.id, record.expiresAt, JSON.stringify(record));
  }
}

/**
 * A new record of `creation`, holding what it stores in `sessionId` (the version's id for a final upload), created at
 * `createdAt`, in `state`, at `offset`.
 */
function newRecord(
  creation: TusCreation,
  sessionId: string,
  createdAt: number,
  state: TusRecord["state"],
  offset: number,
): TusRecord {
  return {
    version: TUS_RECORD_VERSION,
    id: creation.id,
    kind: creation.kind,
    sessionId,
    name: creation.name,
    length: creation.length,
    maxPartBytes: creation.maxPartBytes,
    offset,
    metadata: creation.metadata,
    concat: creation.concat,
    state,
    createdAt,
    expiresAt: createdAt + creation.ttlMs,
    condition: creation.condition,
    patch: null,
    lines: 0,
    segments: 0,
    parts: 0,
    held: "",
    heldSkipped: 0,
    pieces: [],
  };
}
