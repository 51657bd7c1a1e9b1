/**
 * The records a file's coordinator keeps in its SQLite storage: the current version, replaced versions
 * waiting for their readers, uploads in flight with their leases and multipart uploads, read leases, and
 * upload sessions with their segments. Every method is synchronous, so a sequence of calls without an `await`
 * between them is atomic. The schema and its migrations are in `ledger-schema.ts`.
 *
 * @module
 */
import { migrateLedger } from "./ledger-schema.ts";

/**
 * An upload in flight: its parts live under `<name>/uploads/<uploadId>/` until it publishes (a whole file), is
 * accepted (a segment of a session) or dies.
 */
export interface AttemptRecord {
  /** The attempt's id, also the folder of its parts (inside its session's folder for a segment). */
  uploadId: string;
  /** The upload session whose segment it writes, or `null` for a whole file. */
  sessionId: string | null;
  /** `writing` while parts stream in; `publishing` once its manifest is being written. */
  state: "writing" | "publishing";
  /** When the lease ends unless renewed (ms since the epoch). */
  leaseUntil: number;
  /** A token the client chose to find its own attempt again (`Drainpipe-Attempt` header), or `""`. */
  clientToken: string;
  /** When the attempt began (ms since the epoch). */
  startedAt: number;
}

/** A published version: the current one, or a replaced one whose objects wait for its last reader. */
export interface VersionRecord {
  /** The upload id that wrote it. */
  uploadId: string;
  /** `current` (at most one), or `retired` (replaced or deleted, objects not yet removed). */
  state: "current" | "retired";
  /** The manifest JSON as published (`""` for a retired version). */
  manifest: string;
}

/** Where the grace period last given by a retiring call is kept, for retirements that come without one. */
const READ_GRACE_KEY = "read_grace_ms";

/** A multipart upload an attempt started, recorded before its first part so it can be aborted later. */
export interface MultipartRecord {
  /** The attempt that started it. */
  uploadId: string;
  /** The object key. */
  key: string;
  /** The store's id of the multipart upload. */
  multipartId: string;
}

/** An upload session: segments of one file sent by separate requests, completed into one version. */
export interface SessionRecord {
  /** The session's id: the folder of its segments' parts, and the version's id once completed. */
  sessionId: string;
  /** `open` while segments may arrive; `completed` once published (kept to answer a repeated complete). */
  state: "open" | "completed";
  /** The part size limit of every segment. */
  maxPartBytes: number;
  /** When it was opened (ms since the epoch). */
  createdAt: number;
  /** When an open session is removed, and a completed one forgotten (ms since the epoch). */
  expiresAt: number;
  /** The published manifest JSON once completed, else `""`. */
  manifest: string;
}

/** The accepted write of one segment: the attempt whose parts hold it, and its summary JSON. */
export interface SegmentRecord {
  /** The segment's index. */
  index: number;
  /** The attempt (a composite upload id under the session's folder) whose parts hold the segment. */
  attemptId: string;
  /** The segment's summary, JSON. */
  summary: string;
}

type Row = Record<string, SqlStorageValue>;

/** Finds any table of the ledger's, of any schema version. */
const LEDGER_TABLES_EXIST =
  "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('schema_version', 'meta', 'versions') LIMIT 1";

/**
 * The coordinator's records over a Durable Object's SQL storage.
 *
 * @example
 * ```ts
 * declare const storage: DurableObjectStorage;
 * const ledger = new FileLedger(storage);
 * const leaseUntil = Date.now() + 60_000;
 * ledger.addAttempt({ uploadId: "u1", sessionId: null, state: "writing", leaseUntil, clientToken: "", startedAt: 0 });
 * ledger.attempt("u1")?.state; // "writing"
 * ```
 */
export class FileLedger {
  readonly #storage: DurableObjectStorage;
  /** Whether the tables exist: a ledger nothing was ever written to has none, and reads find it empty. */
  #created: boolean;

  /**
   * Opens the ledger in `storage`, migrating its tables if it has any (see `migrateLedger`). A ledger that has
   * none stays untouched until its first write, so that a coordinator asked only about a name nobody uploaded
   * (a read, a refused request) writes no storage at all. That first write also marks the ledger initialised:
   * it comes after the take-over (`Versions.takeOver`), which found no version to take over.
   */
  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#created = storage.sql.exec(LEDGER_TABLES_EXIST).toArray().length > 0;
    if (this.#created) migrateLedger(storage);
  }

  /** The database, for a write: its tables are created first if need be. */
  get #sql(): SqlStorage {
    if (!this.#created) {
      migrateLedger(this.#storage);
      this.#created = true;
      this.#storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('initialised', '1')");
    }
    return this.#storage.sql;
  }

  #rows<T extends Row>(query: string, ...bindings: SqlStorageValue[]): T[] {
    if (!this.#created) return [];
    return this.#storage.sql.exec<T>(query, ...bindings).toArray();
  }

  /** Whether the ledger has taken over the file's state from the bucket yet. */
  initialised(): boolean {
    return this.#rows("SELECT 1 FROM meta WHERE key = 'initialised'").length > 0;
  }

  /** Marks the ledger as having taken over the file's state. */
  markInitialised(): void {
    this.#sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('initialised', '1')");
  }

  /** The current version, if the file exists. */
  current(): VersionRecord | null {
    const [row] = this.#rows<{ upload_id: string; manifest: string }>(
      "SELECT upload_id, manifest FROM versions WHERE state = 'current'",
    );
    return row ? { uploadId: row.upload_id, state: "current", manifest: row.manifest } : null;
  }

  /**
   * Makes `uploadId` the current version with `manifest`, retiring the version it replaces (returned) and keeping
   * it until `keepUntil` (ms since the epoch) for reads that hold no lease.
   */
  makeCurrent(uploadId: string, manifest: string, keepUntil: number): string | null {
    const replaced = this.retireCurrent(keepUntil);
    this.#sql.exec(
      "INSERT OR REPLACE INTO versions (upload_id, state, manifest) VALUES (?, 'current', ?)",
      uploadId,
      manifest,
    );
    return replaced;
  }

  /**
   * Retires the current version, if any, keeping it until `keepUntil` (ms since the epoch) for reads that hold no
   * lease, and returns its upload id.
   */
  retireCurrent(keepUntil: number): string | null {
    const current = this.current();
    if (!current) return null;
    this.#sql.exec(
      "UPDATE versions SET state = 'retired', manifest = '', keep_until = ? WHERE upload_id = ?",
      keepUntil,
      current.uploadId,
    );
    return current.uploadId;
  }

  /** Whether version `uploadId` (current, or retired and not yet removed) is recorded. */
  hasVersion(uploadId: string): boolean {
    return this.#rows("SELECT 1 FROM versions WHERE upload_id = ?", uploadId).length > 0;
  }

  /** Retired versions whose grace period ended by `now` and that no leased read holds: their objects may go. */
  unreadRetired(now: number): string[] {
    return this.#rows<{ upload_id: string }>(
      `SELECT upload_id FROM versions WHERE state = 'retired' AND keep_until <= ?
       AND upload_id NOT IN (SELECT upload_id FROM reads)`,
      now,
    ).map((row) => row.upload_id);
  }

  /** The read grace period (ms) the last retiring call gave, or 0 when none did. */
  readGrace(): number {
    const [row] = this.#rows<{ value: string }>("SELECT value FROM meta WHERE key = ?", READ_GRACE_KEY);
    return row ? Number(row.value) : 0;
  }

  /** Remembers the read grace period (ms) a retiring call gave; writes only when it changed. */
  rememberReadGrace(graceMs: number): void {
    if (this.readGrace() === graceMs) return;
    this.#sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", READ_GRACE_KEY, String(graceMs));
  }

  /** Forgets a retired version whose objects are gone. */
  dropVersion(uploadId: string): void {
    this.#sql.exec("DELETE FROM versions WHERE upload_id = ? AND state = 'retired'", uploadId);
  }

  /** Records a new upload in flight. */
  addAttempt(attempt: AttemptRecord): void {
    this.#sql.exec(
      `INSERT INTO attempts (upload_id, session_id, state, lease_until, client_token, started_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      attempt.uploadId,
      attempt.sessionId,
      attempt.state,
      attempt.leaseUntil,
      attempt.clientToken,
      attempt.startedAt,
    );
  }

  /** The upload in flight with this id, if any. */
  attempt(uploadId: string): AttemptRecord | null {
    return this.#attempts("WHERE upload_id = ?", uploadId)[0] ?? null;
  }

  /** Every upload in flight, oldest first. */
  attempts(): AttemptRecord[] {
    return this.#attempts("ORDER BY started_at, upload_id");
  }

  /** The writes of segments of session `sessionId` in flight, oldest first. */
  sessionAttempts(sessionId: string): AttemptRecord[] {
    return this.#attempts("WHERE session_id = ? ORDER BY started_at, upload_id", sessionId);
  }

  /** The attempts `clause` selects (a `WHERE` or `ORDER BY` clause with its bindings). */
  #attempts(clause: string, ...bindings: SqlStorageValue[]): AttemptRecord[] {
    return this.#rows<{
      upload_id: string;
      session_id: string | null;
      state: "writing" | "publishing";
      lease_until: number;
      client_token: string;
      started_at: number;
    }>(`SELECT * FROM attempts ${clause}`, ...bindings).map((row) => ({
      uploadId: row.upload_id,
      sessionId: row.session_id,
      state: row.state,
      leaseUntil: row.lease_until,
      clientToken: row.client_token,
      startedAt: row.started_at,
    }));
  }

  /** Extends an attempt's lease; `false` when the attempt is gone (its lease ended and it was removed). */
  renewAttempt(uploadId: string, leaseUntil: number): boolean {
    return (
      this.#sql.exec("UPDATE attempts SET lease_until = ? WHERE upload_id = ?", leaseUntil, uploadId).rowsWritten > 0
    );
  }

  /** Moves an attempt to `publishing`. */
  markPublishing(uploadId: string, leaseUntil: number): void {
    this.#sql.exec(
      "UPDATE attempts SET state = 'publishing', lease_until = ? WHERE upload_id = ?",
      leaseUntil,
      uploadId,
    );
  }

  /** Forgets an attempt and its multipart uploads (it published, or everything it wrote is gone). */
  dropAttempt(uploadId: string): void {
    this.#sql.exec("DELETE FROM attempts WHERE upload_id = ?", uploadId);
    this.#sql.exec("DELETE FROM multiparts WHERE upload_id = ?", uploadId);
  }

  /** Records a multipart upload an attempt started. */
  addMultipart(record: MultipartRecord): void {
    this.#sql.exec(
      "INSERT OR REPLACE INTO multiparts (multipart_id, upload_id, key) VALUES (?, ?, ?)",
      record.multipartId,
      record.uploadId,
      record.key,
    );
  }

  /** Forgets a multipart upload that completed (there is nothing left to abort). */
  dropMultipart(multipartId: string): void {
    this.#sql.exec("DELETE FROM multiparts WHERE multipart_id = ?", multipartId);
  }

  /** The multipart uploads an attempt started and did not complete. */
  multiparts(uploadId: string): MultipartRecord[] {
    return this.#rows<{ multipart_id: string; upload_id: string; key: string }>(
      "SELECT * FROM multiparts WHERE upload_id = ?",
      uploadId,
    ).map((row) => ({ multipartId: row.multipart_id, uploadId: row.upload_id, key: row.key }));
  }

  /** Records a read of version `uploadId`. */
  addRead(readId: string, uploadId: string, leaseUntil: number): void {
    this.#sql.exec(
      "INSERT INTO reads (read_id, upload_id, lease_until) VALUES (?, ?, ?)",
      readId,
      uploadId,
      leaseUntil,
    );
  }

  /** Extends a read's lease; `false` when it is gone. */
  renewRead(readId: string, leaseUntil: number): boolean {
    return this.#sql.exec("UPDATE reads SET lease_until = ? WHERE read_id = ?", leaseUntil, readId).rowsWritten > 0;
  }

  /** Ends a read. */
  dropRead(readId: string): void {
    this.#sql.exec("DELETE FROM reads WHERE read_id = ?", readId);
  }

  /** How many reads are open. */
  readCount(): number {
    const [row] = this.#rows<{ count: number }>("SELECT COUNT(*) AS count FROM reads");
    return row?.count ?? 0;
  }

  /** Drops read leases that ended and returns the attempts whose lease ended (still recorded). */
  expire(now: number): AttemptRecord[] {
    this.#sql.exec("DELETE FROM reads WHERE lease_until <= ?", now);
    return this.attempts().filter((attempt) => attempt.leaseUntil <= now);
  }

  /**
   * The folders under `<name>/uploads/` whose objects must stay: the current version, retired versions, attempts
   * in flight and open sessions (an attempt of a session's segment lives inside the session's folder).
   */
  liveUploadIds(): Set<string> {
    const ids = this.#rows<{ id: string }>(
      `SELECT upload_id AS id FROM versions UNION SELECT COALESCE(session_id, upload_id) FROM attempts
       UNION SELECT session_id FROM sessions WHERE state = 'open'`,
    ).map((row) => row.id);
    return new Set(ids);
  }

  /**
   * The earliest lease, session or grace period end, or `null` when nothing waits for one (a retired version a
   * leased read holds waits for that read instead).
   */
  nextLeaseEnd(): number | null {
    const [row] = this.#rows<{ next: number | null }>(
      `SELECT MIN(ends) AS next FROM (SELECT lease_until AS ends FROM attempts UNION ALL
       SELECT lease_until FROM reads UNION ALL SELECT expires_at FROM sessions UNION ALL
       SELECT expires_at FROM tus_uploads UNION ALL
       SELECT keep_until FROM versions WHERE state = 'retired' AND upload_id NOT IN (SELECT upload_id FROM reads))`,
    );
    return row?.next ?? null;
  }

  /** Records a new open session. */
  addSession(session: SessionRecord): void {
    this.#sql.exec(
      `INSERT INTO sessions (session_id, state, max_part_bytes, created_at, expires_at, manifest)
       VALUES (?, ?, ?, ?, ?, ?)`,
      session.sessionId,
      session.state,
      session.maxPartBytes,
      session.createdAt,
      session.expiresAt,
      session.manifest,
    );
  }

  /** The session with this id, if any. */
  session(sessionId: string): SessionRecord | null {
    return this.#sessions("WHERE session_id = ?", sessionId)[0] ?? null;
  }

  /** Every session, oldest first. */
  sessions(): SessionRecord[] {
    return this.#sessions("ORDER BY created_at, session_id");
  }

  /** The sessions `clause` selects (a `WHERE` or `ORDER BY` clause with its bindings). */
  #sessions(clause: string, ...bindings: SqlStorageValue[]): SessionRecord[] {
    return this.#rows<{
      session_id: string;
      state: "open" | "completed";
      max_part_bytes: number;
      created_at: number;
      expires_at: number;
      manifest: string;
    }>(`SELECT * FROM sessions ${clause}`, ...bindings).map((row) => ({
      sessionId: row.session_id,
      state: row.state,
      maxPartBytes: row.max_part_bytes,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      manifest: row.manifest,
    }));
  }

  /** Marks a session completed with its published manifest. */
  completeSession(sessionId: string, manifest: string): void {
    this.#sql.exec("UPDATE sessions SET state = 'completed', manifest = ? WHERE session_id = ?", manifest, sessionId);
    this.#sql.exec("DELETE FROM segments WHERE session_id = ?", sessionId);
  }

  /** Forgets a session and its segments. */
  dropSession(sessionId: string): void {
    this.#sql.exec("DELETE FROM sessions WHERE session_id = ?", sessionId);
    this.#sql.exec("DELETE FROM segments WHERE session_id = ?", sessionId);
  }

  /** The accepted segments of a session, in index order. */
  segments(sessionId: string): SegmentRecord[] {
    return this.#rows<{ idx: number; attempt_id: string; summary: string }>(
      "SELECT idx, attempt_id, summary FROM segments WHERE session_id = ? ORDER BY idx",
      sessionId,
    ).map((row) => ({ index: row.idx, attemptId: row.attempt_id, summary: row.summary }));
  }

  /** Makes `record` segment `record.index` of a session; returns the attempt it replaced, if any. */
  putSegment(sessionId: string, record: SegmentRecord): string | null {
    const [previous] = this.#rows<{ attempt_id: string }>(
      "SELECT attempt_id FROM segments WHERE session_id = ? AND idx = ?",
      sessionId,
      record.index,
    );
    this.#sql.exec(
      "INSERT OR REPLACE INTO segments (session_id, idx, attempt_id, summary) VALUES (?, ?, ?, ?)",
      sessionId,
      record.index,
      record.attemptId,
      record.summary,
    );
    return previous?.attempt_id ?? null;
  }

  /** Forgets segment `index` of a session. */
  dropSegment(sessionId: string, index: number): void {
    this.#sql.exec("DELETE FROM segments WHERE session_id = ? AND idx = ?", sessionId, index);
  }

  /** The record (JSON) of tus upload `id`, or `null` when there is none. */
  tusUpload(id: string): string | null {
    return this.#rows<{ record: string }>("SELECT record FROM tus_uploads WHERE id = ?", id)[0]?.record ?? null;
  }

  /** Records tus upload `id` (its record as JSON), replacing an earlier record of it. */
  putTusUpload(id: string, expiresAt: number, record: string): void {
    this.#sql.exec(
      "INSERT OR REPLACE INTO tus_uploads (id, expires_at, record) VALUES (?, ?, ?)",
      id,
      expiresAt,
      record,
    );
  }

  /** Forgets tus upload `id`. */
  dropTusUpload(id: string): void {
    this.#sql.exec("DELETE FROM tus_uploads WHERE id = ?", id);
  }

  /** The ids of the tus uploads that expired by `now`. */
  expiredTusUploads(now: number): string[] {
    return this.#rows<{ id: string }>("SELECT id FROM tus_uploads WHERE expires_at <= ?", now).map((row) => row.id);
  }

  /** Whether any retired version still waits for deletion. */
  hasRetired(): boolean {
    return this.#rows("SELECT 1 FROM versions WHERE state = 'retired' LIMIT 1").length > 0;
  }
}
