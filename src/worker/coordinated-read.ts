/**
 * A read of a file's current version under its coordinator. The coordinator keeps a replaced or deleted version
 * for the read grace period, so a read starts with one call that writes nothing and holds no lease. A read still
 * running at half the grace period takes a lease on its version then (and renews it), so the version cannot be
 * deleted until the read is released, or until its lease ends because this isolate died. With no grace period,
 * the read takes its lease when it starts.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { Manifest } from "../files/manifest.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import { Heartbeat } from "./heartbeat.ts";
import type { VersionStamp } from "./validators.ts";

/** How long reads are kept and held. */
export interface ReadTerms {
  /** The lease a read takes, renewed four times per lease. */
  leaseMs: number;
  /** How long the coordinator keeps a replaced version for reads that hold no lease; 0: lease every read. */
  graceMs: number;
}

/**
 * Tries at taking the lease of a read that outlives half the grace period, one every eighth of the grace period:
 * the last one ends at most seven eighths into it, before the version may go.
 */
const HOLD_TRIES = 3;

/** The version a read started on went before the read could take a lease: the read cannot be finished. */
export class ReadLostError extends Error {
  override name = "ReadLostError";
}

/**
 * An open read of what `subject` describes: the whole version (its manifest) or one part (its record). Pipe its
 * bytes with {@linkcode CoordinatedRead.signal} (aborted when the read cannot be finished, so the response
 * errors rather than ending short), and release it once the response body is written (or failed), in
 * `ctx.waitUntil`: a route holds it with {@linkcode withReadLease}, which does that on every path.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import type { Manifest } from "../files/manifest.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const ctx: ExecutionContext;
 * declare const send: (manifest: Manifest, signal: AbortSignal) => Promise<void>;
 * const read = await CoordinatedRead.open(coordinator, { leaseMs: 60_000, graceMs: 60_000 });
 * if (read) ctx.waitUntil(send(read.subject, read.signal).finally(() => read.release()));
 * ```
 */
export class CoordinatedRead<T> {
  /** What is being read: the version's manifest, or one part's record. */
  readonly subject: T;
  readonly #coordinator: DurableObjectStub<FileCoordinator>;
  readonly #uploadId: string;
  readonly #terms: ReadTerms;
  readonly #lost = new AbortController();
  #readId: string | null;
  #heartbeat: Heartbeat | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #released = false;

  private constructor(
    coordinator: DurableObjectStub<FileCoordinator>,
    subject: T,
    uploadId: string,
    readId: string | null,
    terms: ReadTerms,
  ) {
    this.subject = subject;
    this.#coordinator = coordinator;
    this.#uploadId = uploadId;
    this.#terms = terms;
    this.#readId = readId;
    if (readId === null) this.#holdLater(terms.graceMs / 2, HOLD_TRIES);
    else this.#renew(readId);
  }

  /** Opens a read of the current version of the coordinator's file, or resolves `null` when there is none. */
  static async open(
    coordinator: DurableObjectStub<FileCoordinator>,
    terms: ReadTerms,
  ): Promise<CoordinatedRead<Manifest> | null> {
    const read = await coordinator.beginRead(terms.graceMs > 0 ? null : terms.leaseMs);
    if (read === null) return null;
    return new CoordinatedRead(coordinator, read.manifest, read.manifest.uploadId, read.readId, terms);
  }

  /**
   * Opens a read of part `index` of the current version, receiving that part's record and its version's stamp
   * only. Resolves `null` when there is no such file, and `{ parts }` (nothing to release) when the version has no
   * part `index`.
   */
  static async openPart(
    coordinator: DurableObjectStub<FileCoordinator>,
    index: number,
    terms: ReadTerms,
  ): Promise<CoordinatedRead<{ part: PartRecord; version: VersionStamp }> | { parts: number } | null> {
    const read = await coordinator.beginPartRead(index, terms.graceMs > 0 ? null : terms.leaseMs);
    if (read === null) return null;
    if (read.part === null) return { parts: read.parts };
    const { part, version } = read;
    return new CoordinatedRead(coordinator, { part, version }, version.uploadId, read.readId, terms);
  }

  /** Aborted, with a {@linkcode ReadLostError}, when the read cannot be finished. */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /** Ends the read: the version may go once its grace period ended and no other read holds it. */
  async release(): Promise<void> {
    this.#released = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#heartbeat?.stop();
    if (this.#readId !== null) await this.#coordinator.endRead(this.#readId);
  }

  /** Tries to take the lease in `delayMs`, `tries` times at most. */
  #holdLater(delayMs: number, tries: number): void {
    this.#timer = setTimeout(() => {
      this.#hold(tries).catch(() => undefined);
    }, delayMs);
  }

  async #hold(tries: number): Promise<void> {
    const { leaseMs, graceMs } = this.#terms;
    let held: { readId: string } | null;
    try {
      held = await this.#coordinator.holdRead(this.#uploadId, leaseMs);
    } catch (error) {
      if (tries > 1) this.#holdLater(graceMs / 8, tries - 1);
      else this.#lose(`the lease could not be taken before the grace period ends (${String(error)})`, error);
      return;
    }
    if (held === null) {
      this.#lose("the version was removed before the read took a lease");
      return;
    }
    this.#readId = held.readId;
    if (this.#released) await this.#coordinator.endRead(held.readId);
    else this.#renew(held.readId);
  }

  #renew(readId: string): void {
    const { leaseMs } = this.#terms;
    this.#heartbeat = new Heartbeat(() => this.#coordinator.renewRead(readId, leaseMs), leaseMs);
  }

  #lose(why: string, cause?: unknown): void {
    if (this.#released) return;
    this.#lost.abort(new ReadLostError(`Cannot finish reading version ${this.#uploadId}: ${why}`, { cause }));
  }
}

/** A read held while a route answers: what it reads, its signal, and the hand-over of a body that outlives it. */
export interface ReadLease<T> {
  /** What is being read (see {@linkcode CoordinatedRead.subject}). */
  readonly subject: T;
  /** Aborted when the read cannot be finished (see {@linkcode CoordinatedRead.signal}). */
  readonly signal: AbortSignal;
  /**
   * Holds the read until `work` settles (the streaming of the response body) instead of until the answer is made.
   * Its failure is the body's to report: it is not awaited here.
   */
  holdUntil(work: Promise<unknown>): void;
}

/**
 * Answers with `read` held, and releases it on every path: once `answer` returns or throws, or, when `answer`
 * handed the body's streaming over with {@linkcode ReadLease.holdUntil}, once that settles. The release runs in
 * `ctx.waitUntil`, so the response does not wait for it.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const ctx: ExecutionContext;
 * const read = await CoordinatedRead.open(coordinator, { leaseMs: 60_000, graceMs: 0 });
 * if (read) {
 *   // Released after the answer, though `answer` returned early.
 *   await withReadLease(read, ctx, async ({ subject }) => Response.json(subject.totals));
 * }
 * ```
 */
export async function withReadLease<T>(
  read: CoordinatedRead<T>,
  ctx: ExecutionContext,
  answer: (lease: ReadLease<T>) => Promise<Response>,
): Promise<Response> {
  let held: Promise<unknown> | undefined;
  const lease: ReadLease<T> = {
    subject: read.subject,
    signal: read.signal,
    holdUntil: (work) => {
      held = work;
    },
  };
  try {
    return await answer(lease);
  } finally {
    const streamed = held ?? Promise.resolve();
    ctx.waitUntil(streamed.catch(() => undefined).finally(() => read.release()));
  }
}
