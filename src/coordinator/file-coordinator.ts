/**
 * The coordinator of one file name: a Durable Object (one per name, SQLite-backed) that every upload,
 * publication, deletion and read of content goes through. It owns the name's state, so concurrent requests
 * and dead isolates cannot break a file:
 *
 * - **publication** is serialised: each upload's manifest becomes the current version in turn, and the
 *   version it replaces is retired, never deleted while someone reads it;
 * - **uploads in flight** hold a lease their worker renews while the body streams, with the multipart uploads
 *   they started recorded before their first part; when a lease ends, the alarm deletes what the upload wrote;
 * - **reads** hold a lease too; a retired version's objects go only after its last reader is done (or dead);
 * - **deletion** retires the current version and removes remnants, but never touches an upload in flight.
 *
 * @module
 */
import { DurableObject } from "cloudflare:workers";
import { assembleSegments, FileLimitError, SegmentsIncompleteError } from "../files/assemble-segments.ts";
import { type Manifest, parseManifest } from "../files/manifest.ts";
import { parseSegmentSummary, type SegmentSummary } from "../files/segment-summary.ts";
import { manifestKey, newUploadId, uploadIdOfKey, uploadPrefix } from "../split/object-keys.ts";
import { deleteAll, listAll } from "../store/list-all.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { R2Store } from "../store/r2-store.ts";
import { StoreError } from "../store/store-error.ts";
import { type AttemptRecord, FileLedger, type SessionRecord } from "./file-ledger.ts";
import { SerialQueue } from "./serial-queue.ts";

/** What the coordinator needs from the worker's environment. */
export interface CoordinatorEnv {
  /** The bucket the file's objects live in. */
  BUCKET: R2Bucket;
}

/** An upload the coordinator admitted. */
export interface UploadLease {
  /** The upload id: its parts go under `<name>/uploads/<uploadId>/`. */
  uploadId: string;
  /** When the lease ends unless renewed (ms since the epoch). */
  leaseUntil: number;
}

/** A read the coordinator admitted: the version to read, held until the read ends. */
export interface ReadLease {
  /** Pass to `renewRead` and `endRead`. */
  readId: string;
  /** The manifest of the version being read. */
  manifest: Manifest;
  /** When the lease ends unless renewed (ms since the epoch). */
  leaseUntil: number;
}

/**
 * The outcome of a publication: published, refused because the upload's lease ended (its objects are gone), or
 * failed writing the manifest (storage errors do not cross the RPC boundary as `StoreError`, so they are told).
 */
export type PublishResult =
  | { published: true; replaced: string | null }
  | { published: false; reason: "expired" }
  | { published: false; reason: "storage-failed"; detail: string };

/** What a deletion did. */
export interface RemoveResult {
  /** Whether there was a current version (now gone from listings). */
  existed: boolean;
  /** Objects removed that no version, upload or read referred to. */
  remnants: number;
}

/** An upload session as the coordinator reports it. */
export interface SessionView {
  /** The session's upload id. */
  uploadId: string;
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

/** The outcome of completing a session. */
export type CompleteResult =
  | { completed: true; manifest: Manifest }
  | { completed: false; reason: "not-found" }
  | { completed: false; reason: "incomplete"; code: "missing-segments" | "cut-lines"; indexes: number[] }
  | { completed: false; reason: "too-large" | "storage-failed"; detail: string };

/** Limits of a whole file assembled from segments. */
export interface FileLimits {
  /** Largest file in bytes. */
  maxBytes: number;
  /** Most numbers in a file. */
  maxNumbers: number;
}

/** A view of the coordinator's state, for clients and operators. */
export interface CoordinatorStatus {
  /** The current version's upload id, if the file exists. */
  current: string | null;
  /** Uploads in flight. */
  uploads: AttemptRecord[];
  /** Open reads. */
  reads: number;
  /** Whether replaced versions still wait for their readers. */
  retiredWaiting: boolean;
}

/**
 * The Durable Object class. Bind it in `wrangler.toml` (`[[durable_objects.bindings]]`, with a
 * `new_sqlite_classes` migration) and reach the coordinator of a name with `idFromName(name)`; the worker's
 * `coordinated-upload.ts`, `coordinated-read.ts` and `session-routes.ts` show the calls in order.
 */
export class FileCoordinator extends DurableObject<CoordinatorEnv> {
  readonly #ledger: FileLedger;
  /** Where the file's objects live (the `BUCKET` binding); fault tests put a failing store in its place. */
  private store: ObjectStore;
  readonly #serial = new SerialQueue();

  /** Opens the ledger and makes sure an alarm is set for the leases and sessions it holds. */
  constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
    super(ctx, env);
    this.#ledger = new FileLedger(ctx.storage.sql);
    this.store = new R2Store(env.BUCKET);
    ctx.blockConcurrencyWhile(() => this.#scheduleAlarm());
  }

  /** Admits an upload of `name` with a lease of `leaseMs`. */
  async beginUpload(name: string, leaseMs: number, clientToken = ""): Promise<UploadLease> {
    await this.#initialise(name);
    return this.#admit(newUploadId(), leaseMs, clientToken);
  }

  /** Extends an upload's lease; `false` when the upload is no longer admitted (its lease ended). */
  async renewUpload(uploadId: string, leaseMs: number): Promise<boolean> {
    const renewed = this.#ledger.renewAttempt(uploadId, Date.now() + leaseMs);
    await this.#scheduleAlarm();
    return renewed;
  }

  /**
   * Records a multipart upload the upload `uploadId` started, before its first part is sent; `false` when the
   * upload is no longer admitted (then the caller aborts it).
   */
  recordMultipart(uploadId: string, key: string, multipartId: string): boolean {
    if (!this.#ledger.attempt(uploadId)) return false;
    this.#ledger.addMultipart({ uploadId, key, multipartId });
    return true;
  }

  /** Forgets a multipart upload that completed. */
  completedMultipart(multipartId: string): void {
    this.#ledger.dropMultipart(multipartId);
  }

  /**
   * Makes `manifest` (written by the upload `uploadId`) the current version of `name`: writes it to
   * `<name>/manifest.json`, retires the version it replaces, and schedules that version's objects for
   * deletion once nobody reads them. Publications of one name run one at a time, in arrival order.
   */
  publish(name: string, uploadId: string, manifest: Manifest, leaseMs: number): Promise<PublishResult> {
    const text = JSON.stringify(manifest, null, 2);
    return this.#serial.run(async () => {
      await this.#initialise(name);
      if (!this.#ledger.attempt(uploadId)) return { published: false, reason: "expired" } as const;
      this.#ledger.markPublishing(uploadId, Date.now() + leaseMs);
      const failure = await this.#putManifest(name, text);
      if (failure !== null) return { published: false, reason: "storage-failed", detail: failure } as const;
      const replaced = this.#ledger.makeCurrent(uploadId, text);
      this.#ledger.dropAttempt(uploadId);
      await this.#removeUnreadRetired(name);
      await this.#scheduleAlarm();
      return { published: true, replaced } as const;
    });
  }

  /**
   * Gives up an upload: deletes what it wrote (parts and multipart uploads) and forgets it. Safe to call
   * again, and after the lease ended.
   */
  abandonUpload(name: string, uploadId: string): Promise<void> {
    return this.#serial.run(async () => {
      await this.#initialise(name);
      const attempt = this.#ledger.attempt(uploadId);
      if (attempt) await this.#settle(name, attempt);
      else if (this.#ledger.current()?.uploadId !== uploadId) await deleteAll(this.store, uploadPrefix(name, uploadId));
      await this.#scheduleAlarm();
    });
  }

  /**
   * Deletes the file: the current version disappears at once (its objects go once its readers are done),
   * and objects under the name that nothing refers to go now. Uploads in flight are left alone: one that
   * publishes later is simply the newer version.
   */
  remove(name: string): Promise<RemoveResult> {
    return this.#serial.run(async () => {
      await this.#initialise(name);
      const existed = this.#ledger.current() !== null;
      if (existed) {
        await this.store.delete([manifestKey(name)]);
        this.#ledger.retireCurrent();
      }
      await this.#removeUnreadRetired(name);
      const remnants = await this.#removeRemnants(name);
      await this.#scheduleAlarm();
      return { existed, remnants };
    });
  }

  /** Starts a read of the current version of `name`, or `null` when there is no such file. */
  async beginRead(name: string, leaseMs: number): Promise<ReadLease | null> {
    await this.#initialise(name);
    const current = this.#ledger.current();
    if (!current) return null;
    const readId = crypto.randomUUID();
    const leaseUntil = Date.now() + leaseMs;
    this.#ledger.addRead(readId, current.uploadId, leaseUntil);
    await this.#scheduleAlarm();
    return { readId, manifest: parseManifest(current.manifest), leaseUntil };
  }

  /** Extends a read's lease; `false` when it ended. */
  async renewRead(readId: string, leaseMs: number): Promise<boolean> {
    const renewed = this.#ledger.renewRead(readId, Date.now() + leaseMs);
    await this.#scheduleAlarm();
    return renewed;
  }

  /** Ends a read; a retired version it was the last reader of is deleted. */
  endRead(name: string, readId: string): Promise<void> {
    this.#ledger.dropRead(readId);
    if (!this.#ledger.hasRetired()) return Promise.resolve();
    return this.#serial.run(async () => {
      await this.#removeUnreadRetired(name);
      await this.#scheduleAlarm();
    });
  }

  /**
   * Removes every object under `name` that no version, upload in flight or read refers to, after ending the
   * leases that expired (and deleting what their uploads wrote). Returns how many objects went.
   */
  sweep(name: string): Promise<number> {
    return this.#serial.run(async () => {
      await this.#initialise(name);
      const expired = await this.#expire(name);
      await this.#removeUnreadRetired(name);
      const remnants = await this.#removeRemnants(name);
      await this.#scheduleAlarm();
      return expired + remnants;
    });
  }

  /** Opens an upload session of `name`, open for `ttlMs`; every segment is split into parts of `maxPartBytes`. */
  async openSession(name: string, maxPartBytes: number, ttlMs: number): Promise<SessionView> {
    await this.#initialise(name);
    const createdAt = Date.now();
    const session = {
      sessionId: newUploadId(),
      state: "open",
      maxPartBytes,
      createdAt,
      expiresAt: createdAt + ttlMs,
      manifest: "",
    } as const;
    this.#ledger.addSession(session);
    await this.#scheduleAlarm();
    return this.#view(session);
  }

  /** The session `sessionId` with its received segments, or `null` when it is unknown or expired. */
  session(sessionId: string): SessionView | null {
    const session = this.#ledger.session(sessionId);
    return session && session.expiresAt > Date.now() ? this.#view(session) : null;
  }

  /** The open sessions. */
  openSessions(): SessionView[] {
    const now = Date.now();
    return this.#ledger
      .sessions()
      .filter((session) => session.state === "open" && session.expiresAt > now)
      .map((session) => this.#view(session));
  }

  /**
   * Admits a write of segment `index` of the open session `sessionId` with a lease of `leaseMs`: its parts go
   * under the returned attempt id (inside the session's folder). `null` when the session is not open.
   */
  async beginSegment(sessionId: string, index: number, leaseMs: number): Promise<UploadLease | null> {
    const session = this.#ledger.session(sessionId);
    if (session?.state !== "open" || session.expiresAt <= Date.now()) return null;
    return this.#admit(`${sessionId}/s${String(index).padStart(5, "0")}-${newUploadId()}`, leaseMs, "");
  }

  /**
   * Makes the write `attemptId` segment `index` of session `sessionId`, with `summary`; the write it
   * replaces, if any, is deleted. Refused (`expired`) when the attempt's lease ended or the session is no longer
   * open; the caller then abandons the attempt.
   */
  acceptSegment(
    name: string,
    sessionId: string,
    index: number,
    attemptId: string,
    summary: SegmentSummary,
  ): Promise<PublishResult> {
    return this.#serial.run(async () => {
      const session = this.#ledger.session(sessionId);
      if (!this.#ledger.attempt(attemptId) || session?.state !== "open") {
        return { published: false, reason: "expired" } as const;
      }
      const replaced = this.#ledger.putSegment(sessionId, { index, attemptId, summary: JSON.stringify(summary) });
      this.#ledger.dropAttempt(attemptId);
      if (replaced !== null) await deleteAll(this.store, uploadPrefix(name, replaced));
      return { published: true, replaced } as const;
    });
  }

  /**
   * Completes session `sessionId` as a file of segments 0 … count − 1 and publishes it like a single upload:
   * the version it replaces is retired. Completing a completed session answers the same manifest.
   */
  completeSession(name: string, sessionId: string, count: number, limits: FileLimits): Promise<CompleteResult> {
    return this.#serial.run(async () => {
      await this.#initialise(name);
      const session = this.#ledger.session(sessionId);
      if (!session || session.expiresAt <= Date.now()) return { completed: false, reason: "not-found" } as const;
      if (session.state === "completed") return { completed: true, manifest: parseManifest(session.manifest) } as const;
      const records = this.#ledger.segments(sessionId);
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
          return { completed: false, reason: "incomplete", code: error.code, indexes: error.indexes } as const;
        }
        if (error instanceof FileLimitError)
          return { completed: false, reason: "too-large", detail: error.message } as const;
        throw error;
      }
      const text = JSON.stringify(manifest, null, 2);
      const failure = await this.#putManifest(name, text);
      if (failure !== null) return { completed: false, reason: "storage-failed", detail: failure } as const;
      this.#ledger.makeCurrent(sessionId, text);
      for (const record of records.filter((candidate) => candidate.index >= count)) {
        await deleteAll(this.store, uploadPrefix(name, record.attemptId));
      }
      this.#ledger.completeSession(sessionId, text);
      await this.#removeUnreadRetired(name);
      await this.#scheduleAlarm();
      return { completed: true, manifest } as const;
    });
  }

  /** Aborts the open session `sessionId`: everything it wrote goes. `false` when it is not open. */
  abortSession(name: string, sessionId: string): Promise<boolean> {
    return this.#serial.run(async () => {
      const session = this.#ledger.session(sessionId);
      if (session?.state !== "open") return false;
      await this.#removeSession(name, sessionId);
      await this.#scheduleAlarm();
      return true;
    });
  }

  /** The coordinator's state. */
  status(): CoordinatorStatus {
    return {
      current: this.#ledger.current()?.uploadId ?? null,
      uploads: this.#ledger.attempts(),
      reads: this.#ledger.readCount(),
      retiredWaiting: this.#ledger.hasRetired(),
    };
  }

  /** Ends expired leases: deletes what dead uploads wrote and retired versions nobody reads. */
  override async alarm(): Promise<void> {
    const name = this.#ledger.name();
    if (name === null) return;
    await this.#serial.run(async () => {
      await this.#expire(name);
      await this.#removeUnreadRetired(name);
      await this.#scheduleAlarm();
    });
  }

  /** Records an attempt in flight under `uploadId` with a lease of `leaseMs`. */
  async #admit(uploadId: string, leaseMs: number, clientToken: string): Promise<UploadLease> {
    const now = Date.now();
    const leaseUntil = now + leaseMs;
    this.#ledger.addAttempt({ uploadId, state: "writing", leaseUntil, clientToken, startedAt: now });
    await this.#scheduleAlarm();
    return { uploadId, leaseUntil };
  }

  /** Writes `<name>/manifest.json`; resolves `null`, or the storage failure's message. */
  async #putManifest(name: string, manifest: string): Promise<string | null> {
    try {
      await this.store.put(manifestKey(name), new TextEncoder().encode(manifest));
      return null;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      return error.message;
    }
  }

  /** On first use of a name, takes over a version published before the coordinator existed. */
  async #initialise(name: string): Promise<void> {
    if (this.#ledger.initialised()) return;
    this.#ledger.setName(name);
    const manifest = await this.#manifestText(name);
    const uploadId = uploadIdOf(manifest);
    if (uploadId !== null && !this.#ledger.initialised()) this.#ledger.makeCurrent(uploadId, manifest);
    this.#ledger.markInitialised();
  }

  /** Ends the leases and sessions that expired; returns how many objects their uploads had left. */
  async #expire(name: string): Promise<number> {
    const now = Date.now();
    const attempts = this.#ledger.expire(now);
    let removed = 0;
    for (const attempt of attempts) removed += await this.#settle(name, attempt);
    for (const session of this.#ledger.sessions().filter((candidate) => candidate.expiresAt <= now)) {
      if (session.state === "open") removed += await this.#removeSession(name, session.sessionId);
      else this.#ledger.dropSession(session.sessionId);
    }
    return removed;
  }

  /** Deletes everything an open session wrote (segments and writes in flight) and forgets it. */
  async #removeSession(name: string, sessionId: string): Promise<number> {
    for (const attempt of this.#ledger.attempts()) {
      if (!attempt.uploadId.startsWith(`${sessionId}/`)) continue;
      await this.#abortMultiparts(attempt.uploadId);
      this.#ledger.dropAttempt(attempt.uploadId);
    }
    const removed = await deleteAll(this.store, uploadPrefix(name, sessionId));
    this.#ledger.dropSession(sessionId);
    return removed;
  }

  #view(session: SessionRecord): SessionView {
    return {
      uploadId: session.sessionId,
      state: session.state,
      maxPartBytes: session.maxPartBytes,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      segments: this.#ledger.segments(session.sessionId).map((record) => parseSegmentSummary(record.summary)),
    };
  }

  /**
   * Ends an attempt that will not go on: one whose manifest did reach the bucket (a publication cut short, or
   * a write that failed after it happened) becomes the current version; any other is removed with everything
   * it wrote. Returns the objects removed.
   */
  async #settle(name: string, attempt: AttemptRecord): Promise<number> {
    if (attempt.state === "publishing") {
      const manifest = await this.#manifestText(name);
      if (uploadIdOf(manifest) === attempt.uploadId) {
        this.#ledger.makeCurrent(attempt.uploadId, manifest);
        this.#ledger.dropAttempt(attempt.uploadId);
        await this.#removeUnreadRetired(name);
        return 0;
      }
    }
    return this.#removeAttempt(name, attempt.uploadId);
  }

  async #manifestText(name: string): Promise<string> {
    const object = await this.store.get(manifestKey(name));
    return object ? await new Response(object.body).text() : "";
  }

  /** Deletes an attempt's parts, aborts its multipart uploads and forgets it; returns the objects deleted. */
  async #removeAttempt(name: string, uploadId: string): Promise<number> {
    await this.#abortMultiparts(uploadId);
    const removed = await deleteAll(this.store, uploadPrefix(name, uploadId));
    this.#ledger.dropAttempt(uploadId);
    return removed;
  }

  /** Aborts the multipart uploads an attempt started and did not complete (already gone: fine). */
  async #abortMultiparts(uploadId: string): Promise<void> {
    for (const multipart of this.#ledger.multiparts(uploadId)) {
      await this.store.abortMultipart(multipart.key, multipart.multipartId).catch(() => undefined);
    }
  }

  async #removeUnreadRetired(name: string): Promise<void> {
    for (const uploadId of this.#ledger.unreadRetired()) {
      await deleteAll(this.store, uploadPrefix(name, uploadId));
      this.#ledger.dropVersion(uploadId);
    }
  }

  /** Deletes objects under `name` that no version, upload or read refers to; returns how many. */
  async #removeRemnants(name: string): Promise<number> {
    const live = this.#ledger.liveUploadIds();
    const keepManifest = this.#ledger.current() !== null;
    const remnants: string[] = [];
    for await (const object of listAll(this.store, `${name}/`)) {
      if (object.key === manifestKey(name) ? keepManifest : live.has(uploadIdOfKey(name, object.key) ?? "")) continue;
      remnants.push(object.key);
    }
    if (remnants.length > 0) await this.store.delete(remnants);
    return remnants.length;
  }

  /** Sets the alarm at the earliest lease end, unless an earlier one is set; clears it when idle. */
  async #scheduleAlarm(): Promise<void> {
    const next = this.#ledger.nextLeaseEnd();
    if (next === null) {
      if ((await this.ctx.storage.getAlarm()) !== null) await this.ctx.storage.deleteAlarm();
      return;
    }
    const scheduled = await this.ctx.storage.getAlarm();
    if (scheduled === null || scheduled > next) await this.ctx.storage.setAlarm(next);
  }
}

/** The upload id a manifest's JSON names, or `null` (no manifest: `""`). */
function uploadIdOf(manifest: string): string | null {
  return manifest === "" ? null : parseManifest(manifest).uploadId;
}
