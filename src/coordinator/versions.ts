/**
 * A file's versions under its coordinator: the current one, published by writing `<name>/manifest.json`, and the
 * replaced (retired) ones, whose objects go once their read grace period ended and their last leased reader is
 * done. Within the grace period a reader needs no lease: a read shorter than it holds nothing.
 *
 * @module
 */
import { parseManifest } from "../files/manifest.ts";
import { manifestKey, uploadPrefix } from "../split/object-keys.ts";
import { deleteAll } from "../store/list-all.ts";
import { StoreError } from "../store/store-error.ts";
import type { CoordinatedFile } from "./coordinated-file.ts";

/**
 * The versions of one file.
 *
 * @example
 * ```ts
 * import type { CoordinatedFile } from "./coordinated-file.ts";
 * declare const file: CoordinatedFile;
 * const versions = new Versions(file);
 * await versions.takeOver();
 * const failure = await versions.writeManifest("{}");
 * ```
 */
export class Versions {
  readonly #file: CoordinatedFile;

  /** The versions of `file`. */
  constructor(file: CoordinatedFile) {
    this.#file = file;
  }

  /** On the ledger's first use, takes over a version published before the coordinator existed. */
  async takeOver(): Promise<void> {
    const { ledger } = this.#file;
    if (ledger.initialised()) return;
    const manifest = await this.storedManifest();
    // With nothing to take over, nothing is written: the ledger's first write marks it initialised.
    if (manifest === "") return;
    ledger.makeCurrent(parseManifest(manifest).uploadId, manifest, 0);
    ledger.markInitialised();
  }

  /** The manifest JSON in the bucket, or `""` when there is none. */
  async storedManifest(): Promise<string> {
    const object = await this.#file.store.get(manifestKey(this.#file.name));
    return object ? await new Response(object.body).text() : "";
  }

  /** Writes `<name>/manifest.json`; resolves `null`, or the storage failure's message. */
  async writeManifest(manifest: string): Promise<string | null> {
    try {
      await this.#file.store.put(manifestKey(this.#file.name), new TextEncoder().encode(manifest));
      return null;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      return error.message;
    }
  }

  /**
   * Until when a version retired now is kept for reads that hold no lease: `graceMs` from now. The grace period is
   * remembered for retirements that come without one (an upload whose publication was cut short, settled by the
   * alarm).
   */
  keepUntil(graceMs: number): number {
    this.#file.ledger.rememberReadGrace(graceMs);
    return Date.now() + graceMs;
  }

  /**
   * Makes `uploadId`, whose manifest is already written, the current version; the version it replaces is
   * retired (returned), kept for `graceMs` (the last grace period given when omitted), and removed once that
   * ended and no leased read holds it.
   */
  async makeCurrent(
    uploadId: string,
    manifest: string,
    graceMs = this.#file.ledger.readGrace(),
  ): Promise<string | null> {
    const replaced = this.#file.ledger.makeCurrent(uploadId, manifest, this.keepUntil(graceMs));
    await this.removeUnread();
    return replaced;
  }

  /**
   * Deletes the file's manifest and retires the current version, kept for `graceMs`; resolves whether there was
   * one. Its objects go once that ended and no leased read holds them.
   */
  async remove(graceMs: number): Promise<boolean> {
    const { ledger, store, name } = this.#file;
    const existed = ledger.current() !== null;
    if (existed) {
      await store.delete([manifestKey(name)]);
      ledger.retireCurrent(this.keepUntil(graceMs));
    }
    await this.removeUnread();
    return existed;
  }

  /** Deletes the objects of retired versions whose grace period ended and that no leased read holds; forgets them. */
  async removeUnread(): Promise<void> {
    const { ledger, store, name } = this.#file;
    for (const uploadId of ledger.unreadRetired(Date.now())) {
      await deleteAll(store, uploadPrefix(name, uploadId));
      ledger.dropVersion(uploadId);
    }
  }
}
