/** A read of one part the coordinator admitted: that part's record, held until the read ends when leased. */
export interface PartReadLease {
  /** Pass to `renewRead` and `endRead`; `null` when the read took no lease. */
  readId: string | null;
  /** The part being read. */
  part: PartRecord;
  /** The version the part belongs to: its upload id and when it was published (what its validators are made of). */
  version: Pick<Manifest, "uploadId" | "createdAt">;
  /** How many parts the version has. */
  parts: number;
  /** When the lease ends unless renewed (ms since the epoch); `null` when the read took no lease. */
  leaseUntil: number | null;
}

/** A part read of an index the current version does not have: no lease was taken. */
export interface NoSuchPart {
  /** Always `null`. */
  part: null;
  /** How many parts the version has. */
  parts: number;
}

/**
 * Reads of a file's content under its coordinator. A read starts without a lease (nothing is written): a version
 * is kept for the read grace period after it is replaced, so a read shorter than that needs nothing more. A read
 * that may outlive the grace period takes a lease on the version it reads, so the version's objects stay until
 * the read ends or its reader dies.
 *
 * @module
 */
import { type Manifest, parseManifest } from "../files/manifest.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";

/** A read the coordinator admitted: the version to read, held until the read ends when a lease was taken. */
export interface ReadLease {
  /** Pass to `renewRead` and `endRead`; `null` when the read took no lease. */
  readId: string | null;
  /** The manifest of the version being read. */
  manifest: Manifest;
  /** When the lease ends unless renewed (ms since the epoch); `null` when the read took no lease. */
  leaseUntil: number | null;
}

/**
 * The read leases of one file.
 *
 * @example
 * ```ts
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * declare const file: CoordinatedFile;
 * const reads = new Reads(file);
 * const unleased = reads.begin(null); // writes nothing
 * const held = unleased && reads.hold(unleased.manifest.uploadId, 60_000); // once the read nears the grace period
 * if (held) reads.end(held.readId);
 * ```
 */
export class Reads {
  readonly #file: CoordinatedFile;
  #parsed: Manifest | undefined;

  /** The reads of `file`. */
  constructor(file: CoordinatedFile) {
    this.#file = file;
  }

  /**
   * Starts a read of the current version with a lease of `leaseMs`, or with none (writing nothing) when `leaseMs`
   * is `null`; `null` when there is no such file.
   */
  begin(leaseMs: number | null): ReadLease | null {
    const manifest = this.#current();
    if (!manifest) return null;
    return { ...this.#lease(manifest, leaseMs), manifest };
  }

  /**
   * Starts a read of part `index` of the current version with a lease of `leaseMs` (none when `null`): only that
   * part's record crosses to the reader, whatever the file's size. `null` when there is no such file; no lease when
   * the version has no part `index`.
   */
  beginPart(index: number, leaseMs: number | null): PartReadLease | NoSuchPart | null {
    const manifest = this.#current();
    if (!manifest) return null;
    const part = manifest.parts[index];
    const parts = manifest.parts.length;
    if (!part) return { part: null, parts };
    const version = { uploadId: manifest.uploadId, createdAt: manifest.createdAt };
    return { ...this.#lease(manifest, leaseMs), part, parts, version };
  }

  /** The current version's manifest, parsed once per version: reads of a large file do not parse it again. */
  #current(): Manifest | null {
    const current = this.#file.ledger.current();
    if (!current) return null;
    if (this.#parsed?.uploadId !== current.uploadId) this.#parsed = parseManifest(current.manifest);
    return this.#parsed;
  }

  /** Records a read of `manifest`'s version with a lease of `leaseMs`; records nothing when it is `null`. */
  #lease(manifest: Manifest, leaseMs: number | null): { readId: string | null; leaseUntil: number | null } {
    if (leaseMs === null) return { readId: null, leaseUntil: null };
    return this.hold(manifest.uploadId, leaseMs)!;
  }

  /**
   * Takes a lease of `leaseMs` on version `uploadId` for a read that started without one; `null` when the version
   * is gone (its grace period ended and no lease held it), and the read can no longer be finished.
   */
  hold(uploadId: string, leaseMs: number): { readId: string; leaseUntil: number } | null {
    const { ledger } = this.#file;
    if (!ledger.hasVersion(uploadId)) return null;
    const readId = crypto.randomUUID();
    const leaseUntil = Date.now() + leaseMs;
    ledger.addRead(readId, uploadId, leaseUntil);
    return { readId, leaseUntil };
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
