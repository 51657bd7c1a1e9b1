/**
 * Reads of a file's content under its coordinator: each holds the version it reads with a lease, so the
 * version's objects stay until the read ends or its reader dies.
 *
 * @module
 */
import { type Manifest, parseManifest } from "../files/manifest.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";

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
 * The read leases of one file.
 *
 * @example
 * ```ts
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * declare const file: CoordinatedFile;
 * const reads = new Reads(file);
 * const lease = reads.begin(60_000);
 * if (lease) reads.end(lease.readId);
 * ```
 */
export class Reads {
  readonly #file: CoordinatedFile;

  /** The reads of `file`. */
  constructor(file: CoordinatedFile) {
    this.#file = file;
  }

  /** Starts a read of the current version with a lease of `leaseMs`, or `null` when there is no such file. */
  begin(leaseMs: number): ReadLease | null {
    const { ledger } = this.#file;
    const current = ledger.current();
    if (!current) return null;
    const readId = crypto.randomUUID();
    const leaseUntil = Date.now() + leaseMs;
    ledger.addRead(readId, current.uploadId, leaseUntil);
    return { readId, manifest: parseManifest(current.manifest), leaseUntil };
  }

  /** Extends a read's lease; `false` when it ended. */
  renew(readId: string, leaseMs: number): boolean {
    return this.#file.ledger.renewRead(readId, Date.now() + leaseMs);
  }

  /** Ends a read; resolves whether retired versions wait for deletion (this read may have been their last). */
  end(readId: string): boolean {
    const { ledger } = this.#file;
    ledger.dropRead(readId);
    return ledger.hasRetired();
  }
}
