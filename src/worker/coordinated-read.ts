/**
 * A read of a file's current version under its coordinator: the version cannot be deleted (by a replacing
 * upload or a DELETE) until the read is released, or until its lease ends because this isolate died.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { Manifest } from "../files/manifest.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import { Heartbeat } from "./heartbeat.ts";
import type { VersionStamp } from "./validators.ts";

/**
 * An open read of what `subject` describes: the whole version (its manifest) or one part (its record). Release
 * it once the response body is written (or failed), typically in `ctx.waitUntil`.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import type { Manifest } from "../files/manifest.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const ctx: ExecutionContext;
 * declare const send: (manifest: Manifest) => Promise<void>;
 * const read = await CoordinatedRead.open(coordinator, 60_000);
 * if (read) ctx.waitUntil(send(read.subject).finally(() => read.release()));
 * ```
 */
export class CoordinatedRead<T> {
  /** What is being read: the version's manifest, or one part's record. */
  readonly subject: T;
  readonly #coordinator: DurableObjectStub<FileCoordinator>;
  readonly #readId: string;
  readonly #heartbeat: Heartbeat;

  private constructor(coordinator: DurableObjectStub<FileCoordinator>, readId: string, subject: T, leaseMs: number) {
    this.subject = subject;
    this.#coordinator = coordinator;
    this.#readId = readId;
    this.#heartbeat = new Heartbeat(() => coordinator.renewRead(readId, leaseMs), leaseMs);
  }

  /** Opens a read of the current version of the coordinator's file, or resolves `null` when there is none. */
  static async open(
    coordinator: DurableObjectStub<FileCoordinator>,
    leaseMs: number,
  ): Promise<CoordinatedRead<Manifest> | null> {
    const lease = await coordinator.beginRead(leaseMs);
    if (lease === null) return null;
    return new CoordinatedRead(coordinator, lease.readId, lease.manifest, leaseMs);
  }

  /**
   * Opens a read of part `index` of the current version, receiving that part's record and its version's stamp
   * only. Resolves `null` when there is no such file, and `{ parts }` (nothing to release) when the version has no
   * part `index`.
   */
  static async openPart(
    coordinator: DurableObjectStub<FileCoordinator>,
    index: number,
    leaseMs: number,
  ): Promise<CoordinatedRead<{ part: PartRecord; version: VersionStamp }> | { parts: number } | null> {
    const lease = await coordinator.beginPartRead(index, leaseMs);
    if (lease === null) return null;
    if (lease.part === null) return { parts: lease.parts };
    const { part, version } = lease;
    return new CoordinatedRead(coordinator, lease.readId, { part, version }, leaseMs);
  }

  /** Ends the read: the version may go once no other read holds it. */
  async release(): Promise<void> {
    this.#heartbeat.stop();
    await this.#coordinator.endRead(this.#readId);
  }
}
