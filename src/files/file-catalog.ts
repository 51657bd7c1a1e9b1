import "../streams/platform-types.ts";
import { filePrefix, manifestKey } from "../split/object-keys.ts";
import { deleteAll, listPrefixes } from "../store/list-all.ts";
import type { ObjectRange, ObjectStore, StoredObjectBody } from "../store/object-store.ts";
import { assertValidName } from "./file-name.ts";
import { type LinesRead, readLines, type SearchResult, searchValue } from "./line-reads.ts";
import type { Manifest } from "./manifest.ts";
import { type PartSlice, sliceParts, wholeParts } from "./part-slices.ts";
import { readManifest } from "./read-manifest.ts";

/** A file as listed by {@linkcode FileCatalog.list}. */
export interface FileSummary {
  /** The name it is stored under: its folder in the bucket. */
  name: string;
  /** When its manifest was written. */
  createdAt: string;
  /** Parts, bytes and numbers over the whole file. */
  totals: Manifest["totals"];
}

/**
 * How many manifests {@linkcode FileCatalog.list} reads at once: 6, the connections a Worker request may have
 * open at once (further calls wait for one to close).
 */
const LIST_CONCURRENCY = 6;

/** One page of {@linkcode FileCatalog.listPage}. */
export interface FilePage {
  /** The complete files of the page, in name order. */
  files: FileSummary[];
  /** Continues the listing from the next page; absent on the last page. */
  cursor?: string;
}

/**
 * Reading and removing stored files: the read side of the split layer. Only files with a manifest exist;
 * an upload in progress or one that failed is invisible.
 *
 * @example
 * ```ts
 * import type { ObjectStore } from "../store/object-store.ts";
 * declare const store: ObjectStore;
 * const catalog = new FileCatalog(store);
 * const manifest = await catalog.manifest("primes");
 * if (manifest) console.log(await new Response(catalog.content(manifest)).text());
 * ```
 */
export class FileCatalog {
  readonly #store: ObjectStore;

  /** Reads files from `store`. */
  constructor(store: ObjectStore) {
    this.#store = store;
  }

  /** Every complete file, in name order. */
  async list(): Promise<FileSummary[]> {
    const names: string[] = [];
    for await (const prefix of listPrefixes(this.#store, "", "/")) names.push(prefix.slice(0, -1));
    return this.#summaries(names);
  }

  /**
   * One page of complete files in name order: the next `limit` names after `cursor` (a previous page's), each
   * with its summary. Names whose manifest is missing (an upload still in flight) are left out, so a page may
   * hold fewer. The page's `cursor` continues the listing; it is absent on the last page.
   */
  async listPage(options: { limit: number; cursor?: string }): Promise<FilePage> {
    const { limit, cursor } = options;
    const page = await this.#store.list("", { delimiter: "/", limit, ...(cursor === undefined ? {} : { cursor }) });
    const files = await this.#summaries(page.prefixes.map((prefix) => prefix.slice(0, -1)));
    return page.cursor === undefined ? { files } : { files, cursor: page.cursor };
  }

  /** The manifest of `name`, or `null` when there is no such file. */
  manifest(name: string): Promise<Manifest | null> {
    return readManifest(this.#store, assertValidName(name));
  }

  /**
   * Part `index` (0-based) of `name`, or `null` when the file or the part does not exist; with `range`, only those
   * bytes of the part are read (its `size` is still the whole part's).
   *
   * @throws {RangeError} when `index` is not a whole number.
   */
  async part(name: string, index: number, range?: ObjectRange): Promise<StoredObjectBody | null> {
    if (!Number.isSafeInteger(index) || index < 0) {
      throw new RangeError(`Cannot read part ${index}: expected a whole number from 0`);
    }
    const record = (await this.manifest(name))?.parts[index];
    if (!record) return null;
    return range === undefined ? this.#store.get(record.key) : this.#store.get(record.key, range);
  }

  /**
   * The whole content of the file described by `manifest`: its parts' bytes one after another, streamed
   * part by part (see {@linkcode pipeContent}).
   */
  content(manifest: Manifest): ReadableStream<Uint8Array> {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    this.pipeContent(manifest, writable).catch(() => undefined);
    return readable;
  }

  /**
   * Lines `from` … `from + count − 1` (0-based) of the file described by `manifest`: fewer at the end of the file,
   * none past it (`count` 0, `total` says how many it has). Reads a few entries of the line index and one small byte
   * range of each part the lines lie in (see `readLines`).
   *
   * @throws {RangeError} when `from` is not a whole number or `count` not one from 1 to `MAX_LINES_COUNT`.
   * @throws {LineIndexMissingError} for a file stored before line indexes existed (manifest version 1).
   * @example
   * ```ts
   * declare const catalog: FileCatalog;
   * const manifest = (await catalog.manifest("primes"))!;
   * const { bytes } = await catalog.lines(manifest, 0, 3);
   * new TextDecoder().decode(bytes); // "2\n3\n5\n" for the first primes
   * ```
   */
  lines(manifest: Manifest, from: number, count: number): Promise<LinesRead> {
    return readLines(this.#store, manifest, from, count);
  }

  /**
   * The first line of the non-decreasing file described by `manifest` whose number is at least `value`: its index,
   * number and whether it equals `value` (index = the line count and no number when every number is less). At most
   * two reads: part of the line index of one part, and one small byte range of it (see `searchValue`).
   *
   * @throws {RangeError} when `value` is not a safe integer.
   * @throws {NotSortedError} when the file's numbers are not non-decreasing.
   * @throws {LineIndexMissingError} for a file stored before line indexes existed (manifest version 1).
   * @example
   * ```ts
   * declare const catalog: FileCatalog;
   * const manifest = (await catalog.manifest("primes"))!;
   * await catalog.search(manifest, 7); // { index: 3, value: 7, found: true } for the first primes
   * ```
   */
  search(manifest: Manifest, value: number): Promise<SearchResult> {
    return searchValue(this.#store, manifest, value);
  }

  /**
   * Bytes `offset` … `offset + length − 1` of the content of the file described by `manifest`, streamed: only the
   * parts the range covers are read, and of the first and last only the bytes in the range (see
   * {@linkcode pipeSlices}).
   *
   * @throws {RangeError} when the range is empty or does not lie within the content.
   */
  contentRange(manifest: Manifest, offset: number, length: number): ReadableStream<Uint8Array> {
    const slices = sliceParts(manifest.parts, offset, length);
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    this.pipeSlices(manifest.name, slices, writable).catch(() => undefined);
    return readable;
  }

  /**
   * Pipes every part of `manifest`, in order, into `destination`, then closes it. Each part's body is piped
   * straight from the store, so a runtime can move the bytes without a JavaScript hop per chunk. If a part
   * has vanished (the file was replaced or removed meanwhile) or a read fails, `destination` is aborted
   * and the promise rejects.
   */
  pipeContent(manifest: Manifest, destination: WritableStream<Uint8Array>): Promise<void> {
    return this.pipeSlices(manifest.name, wholeParts(manifest.parts), destination);
  }

  /**
   * Pipes `slices` of parts of the file `name`, in order, into `destination`, then closes it: a whole part is one
   * read of its object, a slice of a part one ranged read of only its bytes. Fails as {@linkcode pipeContent}, and
   * when `signal` aborts (with its reason). `started` is called once the first slice's object is in hand, before any
   * byte reaches `destination`: until then a caller may still answer a failure with an error status.
   */
  async pipeSlices(
    name: string,
    slices: readonly PartSlice[],
    destination: WritableStream<Uint8Array>,
    signal?: AbortSignal,
    started?: () => void,
  ): Promise<void> {
    try {
      for (const { part, offset, length } of slices) {
        signal?.throwIfAborted();
        const whole = offset === 0 && length === part.bytes;
        const object = await (whole ? this.#store.get(part.key) : this.#store.get(part.key, { offset, length }));
        if (!object) {
          throw new Error(
            `Cannot read part ${part.index} of "${name}": it no longer exists (the file was replaced or removed)`,
          );
        }
        started?.();
        await object.body.pipeTo(destination, {
          preventClose: true,
          preventAbort: true,
          ...(signal ? { signal } : {}),
        });
      }
    } catch (error) {
      await destination.abort(error).catch(() => undefined);
      throw error;
    }
    await destination.close();
  }

  /**
   * Removes `name`: the manifest first (so the file disappears at once), then every object under the name,
   * including leftovers of earlier attempts. Resolves `false` when there was no such file.
   */
  async remove(name: string): Promise<boolean> {
    const existed = (await this.manifest(name)) !== null;
    await this.#store.delete([manifestKey(name)]);
    await deleteAll(this.#store, filePrefix(name));
    return existed;
  }

  /** The summaries of the complete files among `names`, {@linkcode LIST_CONCURRENCY} manifests at a time. */
  async #summaries(names: string[]): Promise<FileSummary[]> {
    const summaries: (FileSummary | null)[] = [];
    for (let start = 0; start < names.length; start += LIST_CONCURRENCY) {
      const batch = names.slice(start, start + LIST_CONCURRENCY);
      summaries.push(...(await Promise.all(batch.map((name) => this.#summary(name)))));
    }
    return summaries.filter((summary) => summary !== null);
  }

  async #summary(name: string): Promise<FileSummary | null> {
    const manifest = await readManifest(this.#store, name);
    return manifest && { name, createdAt: manifest.createdAt, totals: manifest.totals };
  }
}
