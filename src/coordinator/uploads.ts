/**
 * Uploads in flight under a file's coordinator: each attempt is admitted with a lease its worker renews while
 * the body streams, records its multipart uploads before their first part, and ends by publishing its manifest,
 * by being abandoned, or by its lease running out; then everything it wrote is deleted.
 *
 * @module
 */
import { type Manifest, parseManifest } from "../files/manifest.ts";
import { newUploadId, uploadPrefix } from "../split/object-keys.ts";
import { deleteAll } from "../store/list-all.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";
import type { AttemptRecord } from "./file-ledger.ts";
import type { Versions } from "./versions.ts";
import { type ConditionFailed, conditionHolds, type WriteCondition } from "./write-condition.ts";

/** An upload the coordinator admitted. */
export interface UploadLease {
  /** The attempt's id: its parts go under `<name>/uploads/<uploadId>/`. */
  uploadId: string;
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
  | { published: false; reason: "storage-failed"; detail: string }
  | ({ published: false } & ConditionFailed);

/** How an attempt is admitted: for a whole file (the default) or for a segment of a session. */
export interface AdmitOptions {
  /** A token the client chose to find its attempt again (`Drainpipe-Attempt` header), or `""`. */
  clientToken?: string;
  /** The session whose segment the attempt writes. */
  sessionId?: string;
  /** The attempt's id (default: a new upload id). */
  uploadId?: string;
}

/**
 * The uploads in flight of one file.
 *
 * @example
 * ```ts
 * import { type Manifest, parseManifest } from "../files/manifest.ts";
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * import { Versions } from "./versions.ts";
 * declare const file: CoordinatedFile;
 * declare const manifest: Manifest;
 * const uploads = new Uploads(file, new Versions(file));
 * const { uploadId } = uploads.admit(60_000);
 * await uploads.publish(uploadId, manifest, 60_000, 60_000); // { published: true, replaced: null }
 * ```
 */
export class Uploads {
  readonly #file: CoordinatedFile;
  readonly #versions: Versions;

  /** The uploads of `file`, publishing into `versions`. */
  constructor(file: CoordinatedFile, versions: Versions) {
    this.#file = file;
    this.#versions = versions;
  }

  /** Records an attempt in flight with a lease of `leaseMs`. */
  admit(leaseMs: number, options: AdmitOptions = {}): UploadLease {
    const now = Date.now();
    const leaseUntil = now + leaseMs;
    const uploadId = options.uploadId ?? newUploadId();
    this.#file.ledger.addAttempt({
      uploadId,
      sessionId: options.sessionId ?? null,
      state: "writing",
      leaseUntil,
      clientToken: options.clientToken ?? "",
      startedAt: now,
    });
    return { uploadId, leaseUntil };
  }

  /** Extends an attempt's lease; `false` when the attempt is no longer admitted (its lease ended). */
  renew(uploadId: string, leaseMs: number): boolean {
    return this.#file.ledger.renewAttempt(uploadId, Date.now() + leaseMs);
  }

  /** Records a multipart upload `uploadId` started; `false` when the attempt is no longer admitted. */
  recordMultipart(uploadId: string, key: string, multipartId: string): boolean {
    const { ledger } = this.#file;
    if (!ledger.attempt(uploadId)) return false;
    ledger.addMultipart({ uploadId, key, multipartId });
    return true;
  }

  /** Forgets a multipart upload that completed. */
  completedMultipart(multipartId: string): void {
    this.#file.ledger.dropMultipart(multipartId);
  }

  /**
   * Writes `manifest` (written by the attempt `uploadId`) and makes it the current version, if `condition` holds
   * of the version current now; when it does not, the attempt is abandoned (everything it wrote goes). The version
   * it replaces is kept for `graceMs` for reads that hold no lease.
   */
  async publish(
    uploadId: string,
    manifest: Manifest,
    leaseMs: number,
    graceMs: number,
    condition?: WriteCondition,
  ): Promise<PublishResult> {
    const { ledger } = this.#file;
    if (!ledger.attempt(uploadId)) return { published: false, reason: "expired" };
    const current = ledger.current()?.uploadId ?? null;
    if (!conditionHolds(condition, current)) {
      await this.abandon(uploadId);
      return { published: false, reason: "precondition-failed", current };
    }
    const text = JSON.stringify(manifest, null, 2);
    ledger.markPublishing(uploadId, Date.now() + leaseMs);
    const failure = await this.#versions.writeManifest(text);
    if (failure !== null) return { published: false, reason: "storage-failed", detail: failure };
    ledger.dropAttempt(uploadId);
    return { published: true, replaced: await this.#versions.makeCurrent(uploadId, text, graceMs) };
  }

  /** Gives up an attempt: deletes what it wrote and forgets it. Safe to call again, and after its lease ended. */
  async abandon(uploadId: string): Promise<void> {
    const { ledger, store, name } = this.#file;
    const attempt = ledger.attempt(uploadId);
    if (attempt) await this.#settle(attempt);
    else if (ledger.current()?.uploadId !== uploadId) await deleteAll(store, uploadPrefix(name, uploadId));
  }

  /** Ends the attempts whose lease ended by `now` (see {@linkcode abandon}); resolves the objects removed. */
  async expire(now: number): Promise<number> {
    let removed = 0;
    for (const attempt of this.#file.ledger.expire(now)) removed += await this.#settle(attempt);
    return removed;
  }

  /** Aborts an attempt's multipart uploads and forgets it, leaving its parts to the caller. */
  async forget(uploadId: string): Promise<void> {
    await this.#abortMultiparts(uploadId);
    this.#file.ledger.dropAttempt(uploadId);
  }

  /**
   * Ends an attempt that will not go on: one whose manifest did reach the bucket (a publication cut short, or
   * a write that failed after it happened) becomes the current version; any other is removed with everything
   * it wrote. Resolves the objects removed.
   */
  async #settle(attempt: AttemptRecord): Promise<number> {
    if (attempt.state === "publishing") {
      const manifest = await this.#versions.storedManifest();
      if (manifest !== "" && parseManifest(manifest).uploadId === attempt.uploadId) {
        this.#file.ledger.dropAttempt(attempt.uploadId);
        await this.#versions.makeCurrent(attempt.uploadId, manifest);
        return 0;
      }
    }
    await this.#abortMultiparts(attempt.uploadId);
    const removed = await deleteAll(this.#file.store, uploadPrefix(this.#file.name, attempt.uploadId));
    this.#file.ledger.dropAttempt(attempt.uploadId);
    return removed;
  }

  /** Aborts the multipart uploads an attempt started and did not complete (already gone: fine). */
  async #abortMultiparts(uploadId: string): Promise<void> {
    const { ledger, store } = this.#file;
    for (const multipart of ledger.multiparts(uploadId)) {
      await store.abortMultipart(multipart.key, multipart.multipartId).catch(() => undefined);
    }
  }
}
