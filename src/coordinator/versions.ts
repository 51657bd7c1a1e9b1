/**
 * A file's versions under its coordinator: the current one, published by writing `<name>/manifest.json`, and the
 * replaced (retired) ones, whose objects go once their last reader is done.
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
    ledger.makeCurrent(parseManifest(manifest).uploadId, manifest);
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
   * Makes `uploadId`, whose manifest is already written, the current version; the version it replaces is
   * retired (returned), and removed now when nobody reads it.
   */
  async makeCurrent(uploadId: string, manifest: string): Promise<string | null> {
    const replaced = this.#file.ledger.makeCurrent(uploadId, manifest);
    await this.removeUnread();
    return replaced;
  }

  /**
   * Deletes the file's manifest and retires the current version; resolves whether there was one. Its objects
   * go once nobody reads them.
   */
  async remove(): Promise<boolean> {
    const { ledger, store, name } = this.#file;
    const existed = ledger.current() !== null;
    if (existed) {
      await store.delete([manifestKey(name)]);
      ledger.retireCurrent();
    }
    await this.removeUnread();
    return existed;
  }

  /** Deletes the objects of retired versions nobody reads any more, and forgets them. */
  async removeUnread(): Promise<void> {
    const { ledger, store, name } = this.#file;
    for (const uploadId of ledger.unreadRetired()) {
      await deleteAll(store, uploadPrefix(name, uploadId));
      ledger.dropVersion(uploadId);
    }
  }
}
