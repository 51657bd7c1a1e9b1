/**
 * The storage interface of the split layer: the few object operations drainpipe needs, so the same
 * splitting code runs against R2 in a worker and against memory in unit tests.
 *
 * @module
 */
import "../streams/platform-types.ts";

/** What a store reports about one stored object. */
export interface StoredObject {
  /** Where the object lives in the store, e.g. `primes/manifest.json`. */
  key: string;
  /** Content length in bytes. */
  size: number;
  /** The store's entity tag for this version of the object. */
  etag: string;
}

/** A stored object's content, as returned by {@linkcode ObjectStore.get}. */
export interface StoredObjectBody extends StoredObject {
  /** The content (only the asked-for range, when a range was given) as a byte stream; read it once. */
  body: ReadableStream<Uint8Array>;
}

/** Bytes `offset` … `offset + length − 1` of an object, for {@linkcode ObjectStore.get}. */
export interface ObjectRange {
  /** The first byte, 0-based. */
  offset: number;
  /** How many bytes, at least 1; `offset + length` is at most the object's size. */
  length: number;
}

/** Options of {@linkcode ObjectStore.list}. */
export interface ListOptions {
  /** Continues a listing where the previous page's `cursor` left off. */
  cursor?: string;
  /**
   * Groups keys that contain this string after the prefix: each group is reported once in `prefixes`
   * (up to and including the delimiter) instead of listing its objects.
   */
  delimiter?: string;
  /** Most entries (objects and prefixes together) in the page; the store's own page size when absent or larger. */
  limit?: number;
}

/** One page of a listing. */
export interface ObjectListing {
  /** The objects of this page, in key order. */
  objects: StoredObject[];
  /** With a delimiter: the distinct key prefixes up to and including the delimiter, in order. */
  prefixes: string[];
  /** Pass to the next {@linkcode ObjectStore.list} call to get the next page; absent on the last page. */
  cursor?: string;
}

/** A part already uploaded to a {@linkcode MultipartWrite}. */
export interface UploadedPart {
  /** The 1-based part number. */
  partNumber: number;
  /** The etag the store gave the part. */
  etag: string;
}

/**
 * A multipart write in progress: every part but the last must have the same size (R2 and S3 require
 * at least 5 MiB), the last may be smaller.
 */
export interface MultipartWrite {
  /** The store's id of this multipart upload: with the key, what {@linkcode ObjectStore.abortMultipart} needs. */
  readonly id: string;
  /** Uploads part `partNumber` (1-based). */
  uploadPart(partNumber: number, data: Uint8Array): Promise<UploadedPart>;
  /** Assembles the object from the given parts, in part-number order. */
  complete(parts: UploadedPart[]): Promise<StoredObject>;
  /** Abandons the write and releases every uploaded part. */
  abort(): Promise<void>;
}

/**
 * The object operations the split layer needs. Implementations: `MemoryStore` (tests) and `R2Store`.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./memory-store.ts";
 * const store: ObjectStore = new MemoryStore();
 * await store.put("a/manifest.json", new TextEncoder().encode("{}"));
 * ```
 */
export interface ObjectStore {
  /** Stores `data` under `key`, replacing any object there. */
  put(key: string, data: Uint8Array): Promise<StoredObject>;
  /**
   * Stores `data` under `key` only if the object there still has etag `expected`, or, with `expected`
   * `null`, only if there is no object there: an atomic compare-and-swap. Resolves `null`, writing nothing,
   * when the condition does not hold.
   */
  putIfMatch(key: string, data: Uint8Array, expected: string | null): Promise<StoredObject | null>;
  /** Starts a multipart write of `key`. */
  createMultipartWrite(key: string): Promise<MultipartWrite>;
  /**
   * Aborts the multipart upload `id` of `key`, started earlier (perhaps by another process): its uploaded
   * parts are released. Resolves also when the upload is already gone.
   */
  abortMultipart(key: string, id: string): Promise<void>;
  /**
   * Opens the object under `key`, or resolves `null` when there is none. With `range`, the body holds only those
   * bytes (the store reads only them); `size` is still the whole object's.
   */
  get(key: string, range?: ObjectRange): Promise<StoredObjectBody | null>;
  /** Lists objects whose key starts with `prefix`, in key order, one page at a time. */
  list(prefix: string, options?: ListOptions): Promise<ObjectListing>;
  /** Deletes the given keys; missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
}
