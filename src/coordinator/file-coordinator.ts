/**
 * The coordinator of one file name: a Durable Object (one per name, SQLite-backed) that every upload,
 * publication, deletion and read of content goes through. It owns the name's state, so concurrent requests
 * and dead isolates cannot break a file:
 *
 * - **publication** is serialised: each upload's manifest becomes the current version in turn, and the
 *   version it replaces is retired, never deleted while someone reads it (`versions.ts`);
 * - **uploads in flight** hold a lease their worker renews while the body streams, with the multipart uploads
 *   they started recorded before their first part; when a lease ends, the alarm deletes what the upload wrote
 *   (`uploads.ts`);
 * - **reads** hold a lease too; a retired version's objects go only after its last reader is done, or dead
 *   (`reads.ts`);
 * - **upload sessions** collect a file's segments and complete them into one version (`sessions.ts`);
 * - **deletion** retires the current version and removes remnants, but never touches an upload in flight.
 *
 * This class is the RPC face over those modules: it runs changes one at a time and keeps the alarm set.
 *
 * @module
 */
import { DurableObject } from "cloudflare:workers";
import { FileCatalog } from "../files/file-catalog.ts";
import type { Manifest } from "../files/manifest.ts";
import type { PartSlice } from "../files/part-slices.ts";
import type { SegmentSummary } from "../files/segment-summary.ts";
import { filePrefix } from "../split/object-keys.ts";
import { causedBy } from "../store/caused-by.ts";
import { meteredBucket } from "../store/metered-bucket.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { R2Store } from "../store/r2-store.ts";
import { RequestBudget, type SubrequestVars, subrequestLimit } from "../store/request-budget.ts";
import { SubrequestLimitError } from "../store/subrequest-limit-error.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";
import { type AttemptRecord, FileLedger } from "./file-ledger.ts";
import { InvocationMeter } from "./invocation-meter.ts";
import { type NoSuchPart, type PartReadLease, type ReadLease, Reads } from "./reads.ts";
import { removeRemnants } from "./remnants.ts";
import { SerialQueue } from "./serial-queue.ts";
import { type AcceptResult, type CompleteResult, type FileLimits, Sessions, type SessionView } from "./sessions.ts";
import type { TusPiece, TusRecord } from "./tus-record.ts";
import { type TusAccept, type TusBegin, type TusCreation, type TusPatchResult, TusUploads } from "./tus-uploads.ts";
import { type PublishResult, type UploadLease, Uploads } from "./uploads.ts";
import { Versions } from "./versions.ts";
import { type ConditionFailed, conditionHolds, type WriteCondition } from "./write-condition.ts";

/** What the coordinator needs from the worker's environment. */
export interface CoordinatorEnv extends SubrequestVars {
  /** The bucket the file's objects live in. */
  BUCKET: R2Bucket;
}

/** What a deletion did (when its condition held). */
export interface RemoveResult {
  /** Whether there was a current version (now gone from listings). */
  existed: boolean;
  /** Objects removed that no version, upload or read referred to. */
  remnants: number;
}

/** A view of the coordinator's state, for clients and operators. */
export interface CoordinatorStatus {
  /** The current version's upload id, if the file exists. */
  current: string | null;
  /** Uploads in flight, whole files and segments of sessions, oldest first. */
  uploads: AttemptRecord[];
  /** Reads holding a lease (those that outlived half the read grace period, or all with no grace period). */
  reads: number;
  /** Whether replaced versions still wait for their grace period to end or their leased readers. */
  retiredWaiting: boolean;
}

/** The modules a coordinator delegates to, over one file. */
interface CoordinatorParts {
  file: CoordinatedFile;
  versions: Versions;
  uploads: Uploads;
  reads: Reads;
  sessions: Sessions;
  tus: TusUploads;
}

/** The coordinator was reached without a name (not through `getByName` or `idFromName`), so it has no file. */
export class CoordinatorNameError extends Error {
  override name = "CoordinatorNameError";
}

/**
 * The Durable Object class. Bind it in `wrangler.toml` (`[[durable_objects.bindings]]`, with a
 * `new_sqlite_classes` migration) and reach the coordinator of a name with `getByName(name)`: the object
 * coordinates the file of the name it was reached by (`ctx.id.name`), so no call names the file. The worker's
 * `coordinated-upload.ts`, `coordinated-read.ts` and `session-routes.ts` show the calls in order.
 */
export class FileCoordinator extends DurableObject<CoordinatorEnv> {
  readonly #parts: CoordinatorParts | Error;
  readonly #serial = new SerialQueue();
  /** The subrequests of the change running now, when the coordinator meters its bucket itself. */
  readonly #meter: InvocationMeter | undefined;
  /** The store the coordinator was given instead of its metered bucket (tests). */
  readonly #givenStore: ObjectStore | undefined;

  /**
   * Opens the ledger, takes over a version published before the coordinator existed, and makes sure an alarm
   * is set for the leases and sessions it holds. The file's objects live in `store` (default: the `BUCKET`
   * binding, every call of it charged to the invocation that makes it, within `PLAN` / `SUBREQUEST_LIMIT`). An
   * object not reached by name starts, but refuses every call with a {@linkcode CoordinatorNameError}; one with a
   * malformed `PLAN` or `SUBREQUEST_LIMIT`, with the `RangeError` naming it.
   */
  constructor(ctx: DurableObjectState, env: CoordinatorEnv, store?: ObjectStore) {
    super(ctx, env);
    const name = ctx.id.name;
    const limit = limitOf(env);
    this.#givenStore = store;
    this.#meter = store === undefined && typeof limit === "number" ? new InvocationMeter(limit) : undefined;
    const meter = this.#meter;
    if (typeof limit !== "number") {
      this.#parts = limit;
      return;
    }
    if (name === undefined) {
      this.#parts = new CoordinatorNameError(
        `Cannot coordinate object ${ctx.id.toString()}: it was not reached by a file name (use getByName)`,
      );
      return;
    }
    const fileStore = store ?? new R2Store(meter === undefined ? env.BUCKET : meteredBucket(env.BUCKET, meter));
    const file = { name, ledger: new FileLedger(ctx.storage), store: fileStore };
    const versions = new Versions(file);
    const uploads = new Uploads(file, versions);
    const sessions = new Sessions(file, uploads, versions);
    const tus = new TusUploads(file, sessions, uploads);
    this.#parts = { file, versions, uploads, reads: new Reads(file), sessions, tus };
    ctx.blockConcurrencyWhile(async () => {
      meter?.begin();
      await versions.takeOver();
      await this.#scheduleAlarm();
    });
  }

  /** The modules of a coordinator reached by name. */
  get #named(): CoordinatorParts {
    if (this.#parts instanceof Error) throw this.#parts;
    return this.#parts;
  }

  /** Admits an upload with a lease of `leaseMs`; `clientToken` is the client's name for it, or `""`. */
  beginUpload(leaseMs: number, clientToken = ""): Promise<UploadLease> {
    return this.#thenAlarm(this.#named.uploads.admit(leaseMs, { clientToken }));
  }

  /**
   * Admits an upload like {@linkcode beginUpload} if `condition` holds of the current version, so that an upload
   * bound to fail is refused before it sends anything; it is checked again when the upload publishes.
   */
  async beginUploadIf(
    condition: WriteCondition | undefined,
    leaseMs: number,
    clientToken = "",
  ): Promise<UploadLease | ConditionFailed> {
    const current = this.#named.file.ledger.current()?.uploadId ?? null;
    if (!conditionHolds(condition, current)) return { reason: "precondition-failed", current };
    return this.beginUpload(leaseMs, clientToken);
  }

  /** Extends an upload's lease; `false` when the upload is no longer admitted (its lease ended). */
  renewUpload(uploadId: string, leaseMs: number): Promise<boolean> {
    return this.#thenAlarm(this.#named.uploads.renew(uploadId, leaseMs));
  }

  /**
   * Records a multipart upload the upload `uploadId` started, before its first part is sent; `false` when the
   * upload is no longer admitted (then the caller aborts it).
   */
  recordMultipart(uploadId: string, key: string, multipartId: string): boolean {
    return this.#named.uploads.recordMultipart(uploadId, key, multipartId);
  }

  /** Forgets a multipart upload that completed. */
  completedMultipart(multipartId: string): void {
    this.#named.uploads.completedMultipart(multipartId);
  }

  /**
   * Makes `manifest` (written by the upload `uploadId`) the current version: writes it to
   * `<name>/manifest.json`, retires the version it replaces, and schedules that version's objects for
   * deletion once its read grace period of `graceMs` ended and no leased read holds it. Publications run one at a
   * time, in arrival order; one whose `condition` does not hold of the version current then is refused and its
   * upload abandoned.
   */
  publish(
    uploadId: string,
    manifest: Manifest,
    leaseMs: number,
    graceMs: number,
    condition?: WriteCondition,
  ): Promise<PublishResult> {
    return this.#change(() => this.#named.uploads.publish(uploadId, manifest, leaseMs, graceMs, condition));
  }

  /**
   * Gives up an upload: deletes what it wrote (parts and multipart uploads) and forgets it. Safe to call
   * again, and after the lease ended.
   */
  abandonUpload(uploadId: string): Promise<void> {
    return this.#change(() => this.#named.uploads.abandon(uploadId));
  }

  /**
   * Deletes the file: the current version disappears at once (its objects go once its readers are done),
   * and objects under the name that nothing refers to go now. Uploads in flight are left alone: one that
   * publishes later is simply the newer version. When `condition` does not hold of the current version, nothing
   * changes. The version is kept for `graceMs` for reads that hold no lease.
   */
  remove(graceMs: number, condition?: WriteCondition): Promise<RemoveResult | ConditionFailed> {
    return this.#change(async () => {
      const current = this.#named.file.ledger.current()?.uploadId ?? null;
      if (!conditionHolds(condition, current)) return { reason: "precondition-failed" as const, current };
      const existed = await this.#named.versions.remove(graceMs);
      return { existed, remnants: await removeRemnants(this.#named.file) };
    });
  }

  /**
   * Starts a read of the current version, or `null` when there is no such file. With `leaseMs` `null` the read
   * takes no lease and nothing is written: the version is kept for the read grace period after it is replaced, and
   * a read that may outlive that takes a lease with {@linkcode holdRead}.
   */
  async beginRead(leaseMs: number | null): Promise<ReadLease | null> {
    const read = this.#named.reads.begin(leaseMs);
    return leaseMs === null ? read : await this.#thenAlarm(read);
  }

  /**
   * Starts a read of part `index` of the current version, like {@linkcode beginRead} but handing over that part's
   * record only. `null` when the file does not exist; `{ part: null }` (no lease) when it has no part `index`.
   */
  async beginPartRead(index: number, leaseMs: number | null): Promise<PartReadLease | NoSuchPart | null> {
    const read = this.#named.reads.beginPart(index, leaseMs);
    return leaseMs === null ? read : await this.#thenAlarm(read);
  }

  /**
   * Takes a lease of `leaseMs` on version `uploadId` for a read begun without one; `null` when the version is gone
   * (the read cannot be finished). Waits for the deletion running now, if any, so it never holds a half-deleted
   * version.
   */
  holdRead(uploadId: string, leaseMs: number): Promise<{ readId: string; leaseUntil: number } | null> {
    return this.#serial.run(() => this.#thenAlarm(this.#named.reads.hold(uploadId, leaseMs)));
  }

  /** Extends a read's lease; `false` when it ended. */
  renewRead(readId: string, leaseMs: number): Promise<boolean> {
    return this.#thenAlarm(this.#named.reads.renew(readId, leaseMs));
  }

  /** Ends a read; a retired version it was the last reader of is deleted. */
  async endRead(readId: string): Promise<void> {
    if (this.#named.reads.end(readId)) await this.#change(() => this.#named.versions.removeUnread());
  }

  /**
   * Removes every object under the name that no version, upload in flight or read refers to, after ending the
   * leases that expired (and deleting what their uploads wrote). Returns how many objects went.
   */
  sweep(): Promise<number> {
    return this.#change(async () => {
      const expired = await this.#expire();
      await this.#named.versions.removeUnread();
      return expired + (await removeRemnants(this.#named.file));
    });
  }

  /**
   * Opens an upload session, open for `ttlMs`; every segment is split into parts of `maxPartBytes`. `null` when
   * the name has as many open sessions as it may (`MAX_OPEN_SESSIONS`).
   */
  openSession(maxPartBytes: number, ttlMs: number): Promise<SessionView | null> {
    return this.#thenAlarm(this.#named.sessions.open(maxPartBytes, ttlMs));
  }

  /** The session `sessionId` with its received segments, or `null` when it is unknown or expired. */
  session(sessionId: string): SessionView | null {
    return this.#named.sessions.get(sessionId);
  }

  /** The open sessions. */
  openSessions(): SessionView[] {
    return this.#named.sessions.listOpen();
  }

  /**
   * Admits a write of segment `index` of the open session `sessionId` with a lease of `leaseMs`: its parts go
   * under the returned upload id (inside the session's folder). `null` when the session is not open.
   */
  beginSegment(sessionId: string, index: number, leaseMs: number): Promise<UploadLease | null> {
    return this.#thenAlarm(this.#named.sessions.beginSegment(sessionId, index, leaseMs));
  }

  /**
   * Makes the write `uploadId` segment `index` of session `sessionId`, with `summary`; the write it replaces,
   * if any, is deleted. Refused (`expired`) when the write's lease ended or the session is no longer open; the
   * caller then abandons the write.
   */
  acceptSegment(sessionId: string, index: number, uploadId: string, summary: SegmentSummary): Promise<AcceptResult> {
    return this.#serial.run(() => {
      this.#meter?.begin();
      return this.#named.sessions.accept(sessionId, index, uploadId, summary);
    });
  }

  /**
   * Completes session `sessionId` as a file of segments 0 … count − 1 and publishes it like a single upload:
   * the version it replaces is retired (kept for `graceMs`). Completing a completed session answers the same
   * manifest. When `condition` does not hold of the current version, the session is removed with what it wrote
   * (`precondition-failed`).
   */
  completeSession(
    sessionId: string,
    count: number,
    limits: FileLimits,
    graceMs: number,
    condition?: WriteCondition,
  ): Promise<CompleteResult> {
    return this.#change(() => this.#named.sessions.complete(sessionId, count, limits, graceMs, condition));
  }

  /** Aborts the open session `sessionId`: everything it wrote goes. `false` when it is not open. */
  abortSession(sessionId: string): Promise<boolean> {
    return this.#change(() => this.#named.sessions.abort(sessionId));
  }

  /**
   * Creates a tus upload (see `tus-uploads.ts`); `null` when the name has as many open sessions as it may, a
   * `ConditionFailed` when its `If-Match` / `If-None-Match` does not hold of the current version.
   */
  tusCreate(creation: TusCreation): Promise<TusRecord | ConditionFailed | null> {
    return this.#thenAlarm(this.#named.tus.create(creation));
  }

  /**
   * Records a final tus upload whose file was published as the version `versionId`, to answer `HEAD` until it
   * expires.
   */
  tusRecordFinal(creation: TusCreation, versionId: string): Promise<TusRecord> {
    return this.#thenAlarm(this.#named.tus.recordFinal(creation, versionId));
  }

  /** The tus upload `id`, or `null` when it is unknown or expired. */
  tusGet(id: string): TusRecord | null {
    return this.#named.tus.get(id);
  }

  /**
   * Begins a PATCH of tus upload `id` at `offset` with a lease of `leaseMs` (and the upload's length, when it was
   * deferred and this PATCH gives it). The PATCH begun last is the one that may finish.
   */
  tusBegin(id: string, offset: number, leaseMs: number, length: number | null): Promise<TusBegin> {
    return this.#serial.run(() => {
      this.#meter?.begin();
      return this.#thenAlarm(this.#named.tus.begin(id, offset, leaseMs, length));
    });
  }

  /**
   * Accepts a finished PATCH of a file's tus upload; the one that completes it publishes the file, within `limits`,
   * retiring the version it replaces with a grace period of `graceMs`.
   */
  tusAcceptPatch(
    id: string,
    attemptId: string,
    result: TusPatchResult,
    limits: FileLimits,
    graceMs: number,
  ): Promise<TusAccept> {
    return this.#change(() => this.#named.tus.acceptPatch(id, attemptId, result, limits, graceMs));
  }

  /** Accepts a finished PATCH of a partial tus upload: the piece it stored, from offset `from`. */
  tusAcceptPiece(
    id: string,
    attemptId: string,
    from: number,
    piece: TusPiece,
    length: number | null,
  ): Promise<TusAccept> {
    return this.#serial.run(() => {
      this.#meter?.begin();
      return this.#thenAlarm(this.#named.tus.acceptPiece(id, attemptId, from, piece, length));
    });
  }

  /** Ends tus upload `id` and removes what it stored (a published file stays); `false` when there is none. */
  tusRemove(id: string): Promise<boolean> {
    return this.#change(() => this.#named.tus.remove(id));
  }

  /**
   * The bytes of `slices` (of parts of one of the file's versions), one after another: a slice of a content read
   * that does not fit the reading request's subrequests. This call is an invocation of its own, with its own
   * subrequests: the reading request spends one on the call, this object one R2 read per part slice. The parts
   * stay while it reads: within the read grace period, or under the read lease the reader then takes. Not
   * serialised: reads change nothing.
   */
  readParts(slices: PartSlice[]): ReadableStream<Uint8Array> {
    const { file } = this.#named;
    const folder = filePrefix(file.name);
    const foreign = slices.find((slice) => !slice.part.key.startsWith(folder));
    if (foreign) throw new RangeError(`Cannot read "${foreign.part.key}": it is not an object of "${file.name}"`);
    const { readable, writable } = new IdentityTransformStream();
    const store =
      this.#givenStore ?? new R2Store(meteredBucket(this.env.BUCKET, new RequestBudget(this.#meter?.limit ?? 0)));
    new FileCatalog(store).pipeSlices(file.name, slices, writable).catch(() => undefined);
    return readable;
  }

  /** The coordinator's state. */
  status(): CoordinatorStatus {
    const { ledger } = this.#named.file;
    return {
      current: ledger.current()?.uploadId ?? null,
      uploads: ledger.attempts(),
      reads: ledger.readCount(),
      retiredWaiting: ledger.hasRetired(),
    };
  }

  /**
   * Ends expired leases and sessions: deletes what dead uploads wrote and retired versions nobody reads. Work
   * that does not fit one invocation's subrequests goes on in the next alarm, set at once.
   */
  override async alarm(): Promise<void> {
    await this.#change(async () => {
      await this.#expire();
      await this.#named.versions.removeUnread();
    }).catch((error: unknown) => {
      if (!causedBy(error, SubrequestLimitError)) throw error;
    });
  }

  /**
   * Runs `change` after every change queued before it, as an invocation of its own subrequests, then sets the
   * alarm for what the ledger now holds. A change that ran out of subrequests fails, and the alarm is set to go
   * on with the clean-up at once (every step of it can be done again).
   */
  #change<T>(change: () => Promise<T>): Promise<T> {
    return this.#serial.run(async () => {
      this.#meter?.begin();
      try {
        const result = await change();
        await this.#scheduleAlarm();
        return result;
      } catch (error) {
        if (causedBy(error, SubrequestLimitError)) await this.ctx.storage.setAlarm(Date.now());
        throw error;
      }
    });
  }

  /** Resolves `result` once the alarm is set for what the ledger now holds. */
  async #thenAlarm<T>(result: T): Promise<T> {
    await this.#scheduleAlarm();
    return result;
  }

  /** Ends the leases and sessions that expired; resolves how many objects their uploads had left. */
  async #expire(): Promise<number> {
    const now = Date.now();
    this.#named.tus.expire(now);
    return (await this.#named.uploads.expire(now)) + (await this.#named.sessions.expire(now));
  }

  /** Sets the alarm at the earliest lease end, unless an earlier one is set; clears it when idle. */
  async #scheduleAlarm(): Promise<void> {
    const next = this.#named.file.ledger.nextLeaseEnd();
    if (next === null) {
      if ((await this.ctx.storage.getAlarm()) !== null) await this.ctx.storage.deleteAlarm();
      return;
    }
    const scheduled = await this.ctx.storage.getAlarm();
    if (scheduled === null || scheduled > next) await this.ctx.storage.setAlarm(next);
  }
}

/** The subrequests per invocation that the coordinator's variables give, or the error that names a bad one. */
function limitOf(env: CoordinatorEnv): number | RangeError {
  try {
    return subrequestLimit(env);
  } catch (error) {
    return error as RangeError;
  }
}
