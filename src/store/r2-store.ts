import "../streams/platform-types.ts";
import type {
  ListOptions,
  MultipartWrite,
  ObjectListing,
  ObjectRange,
  ObjectStore,
  StoredObject,
  StoredObjectBody,
  UploadedPart,
} from "./object-store.ts";
import { StoreError } from "./store-error.ts";

/** The parts of an R2 object the store reads. */
interface R2ObjectLike {
  key: string;
  size: number;
  etag: string;
}

/**
 * The subset of the Workers `R2Bucket` binding that {@linkcode R2Store} uses, spelled out so the split layer
 * stays free of Cloudflare type imports and can be exercised with any compatible bucket.
 */
export interface R2BucketLike {
  put(
    key: string,
    value: ArrayBufferView,
    options?: { onlyIf: { etagMatches: string } | { etagDoesNotMatch: string } },
  ): Promise<R2ObjectLike | null>;
  get(
    key: string,
    options?: { range: { offset: number; length: number } },
  ): Promise<(R2ObjectLike & { body: ReadableStream<Uint8Array> }) | null>;
  list(options: { prefix: string; cursor?: string; delimiter?: string }): Promise<{
    objects: R2ObjectLike[];
    delimitedPrefixes: string[];
    truncated: boolean;
    cursor?: string;
  }>;
  delete(keys: string[]): Promise<void>;
  createMultipartUpload(key: string): Promise<R2MultipartLike>;
  resumeMultipartUpload(key: string, uploadId: string): R2MultipartLike;
}

/** The parts of an R2 multipart upload the store uses. */
interface R2MultipartLike {
  readonly uploadId: string;
  uploadPart(partNumber: number, value: ArrayBufferView): Promise<{ partNumber: number; etag: string }>;
  complete(parts: { partNumber: number; etag: string }[]): Promise<R2ObjectLike>;
  abort(): Promise<void>;
}

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * An {@linkcode ObjectStore} backed by a Cloudflare R2 bucket binding. Every failure is rethrown as a
 * {@linkcode StoreError} naming the operation and key, with the R2 error as `cause`.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: { BUCKET: R2BucketLike }) {
 *     const store = new R2Store(env.BUCKET);
 *     const listing = await store.list("primes/");
 *     return Response.json(listing.objects);
 *   },
 * };
 * ```
 */
export class R2Store implements ObjectStore {
  readonly #bucket: R2BucketLike;

  /** Wraps the given bucket binding. */
  constructor(bucket: R2BucketLike) {
    this.#bucket = bucket;
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    const object = await attempt("put", key, () => this.#bucket.put(key, data));
    if (!object) throw new StoreError("put", key, { cause: new Error("R2 declined the write") });
    return describe(object);
  }

  async putIfMatch(key: string, data: Uint8Array, expected: string | null): Promise<StoredObject | null> {
    const onlyIf = expected === null ? { etagDoesNotMatch: "*" } : { etagMatches: expected };
    const object = await attempt("put", key, () => this.#bucket.put(key, data, { onlyIf }));
    return object && describe(object);
  }

  async createMultipartWrite(key: string): Promise<MultipartWrite> {
    const upload = await attempt("create", key, () => this.#bucket.createMultipartUpload(key));
    return {
      id: upload.uploadId,
      uploadPart: (partNumber: number, data: Uint8Array): Promise<UploadedPart> =>
        attempt("uploadPart", `${key}#${partNumber}`, () => upload.uploadPart(partNumber, data)),
      complete: async (parts: UploadedPart[]): Promise<StoredObject> =>
        describe(await attempt("complete", key, () => upload.complete(parts))),
      abort: (): Promise<void> => attempt("abort", key, () => upload.abort()),
    };
  }

  async abortMultipart(key: string, id: string): Promise<void> {
    await attempt("abort", key, () => this.#bucket.resumeMultipartUpload(key, id).abort());
  }

  async get(key: string, range?: ObjectRange): Promise<StoredObjectBody | null> {
    const object = await attempt("get", key, () =>
      range === undefined ? this.#bucket.get(key) : this.#bucket.get(key, { range }),
    );
    return object && { ...describe(object), body: object.body };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectListing> {
    const page = await attempt("list", prefix, () => this.#bucket.list({ prefix, ...options }));
    const objects = page.objects.map(describe);
    const prefixes = page.delimitedPrefixes;
    return page.truncated && page.cursor !== undefined
      ? { objects, prefixes, cursor: page.cursor }
      : { objects, prefixes };
  }

  async delete(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      await attempt("delete", batch[0] ?? "", () => this.#bucket.delete(batch));
    }
  }
}

function describe({ key, size, etag }: R2ObjectLike): StoredObject {
  return { key, size, etag };
}

async function attempt<T>(operation: StoreError["operation"], key: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new StoreError(operation, key, { cause: error });
  }
}
