/**
 * A read of a file's current version under its coordinator: the version cannot be deleted (by a replacing
 * upload or a DELETE) until the read is released, or until its lease ends because this isolate died.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { Manifest } from "../files/manifest.ts";
import { Heartbeat } from "./heartbeat.ts";

/**
 * An open read. Release it once the response body is written (or failed), typically in `ctx.waitUntil`.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import type { Manifest } from "../files/manifest.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const ctx: ExecutionContext;
 * declare const send: (manifest: Manifest) => Promise<void>;
 * const read = await CoordinatedRead.open(coordinator, 60_000);
 * if (read) ctx.waitUntil(send(read.manifest).finally(() => read.release()));
 * ```
 */
export class CoordinatedRead {
  /** The manifest of the version being read. */
  readonly manifest: Manifest;
  readonly #coordinator: DurableObjectStub<FileCoordinator>;
  readonly #readId: string;
  readonly #heartbeat: Heartbeat;

  private constructor(
    coordinator: DurableObjectStub<FileCoordinator>,
    readId: string,
    manifest: Manifest,
    leaseMs: number,
  ) {
    this.manifest = manifest;
    this.#coordinator = coordinator;
    this.#readId = readId;
    this.#heartbeat = new Heartbeat(() => coordinator.renewRead(readId, leaseMs), leaseMs);
  }

  /** Opens a read of the current version of the coordinator's file, or resolves `null` when there is none. */
  static async open(coordinator: DurableObjectStub<FileCoordinator>, leaseMs: number): Promise<CoordinatedRead | null> {
    const lease = await coordinator.beginRead(leaseMs);
    if (lease === null) return null;
    return new CoordinatedRead(coordinator, lease.readId, lease.manifest, leaseMs);
  }

  /** Ends the read: the version may go once no other read holds it. */
  async release(): Promise<void> {
    this.#heartbeat.stop();
    await this.#coordinator.endRead(this.#readId);
  }
}
