/**
 * An object store for one admitted upload: every write first checks that the upload still holds its lease, and
 * every multipart upload is recorded with the file's coordinator before its first part, so that the coordinator
 * can abort it if this isolate dies.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { MultipartWrite, ObjectRange, ObjectStore, StoredObject, UploadedPart } from "../store/object-store.ts";
import type { Heartbeat } from "./heartbeat.ts";
import { HttpError } from "./http-error.ts";

/** The upload a {@linkcode LeasedStore} writes for. */
export interface UploadLeaseHolder {
  /** The admitted upload. */
  uploadId: string;
  /** The coordinator that admitted it. */
  coordinator: DurableObjectStub<FileCoordinator>;
  /** The heartbeat renewing its lease. */
  heartbeat: Heartbeat;
}

/** The answer when an upload lost its lease (its isolate stalled past the lease): the client may retry. */
export function leaseLost(uploadId: string): HttpError {
  return new HttpError(503, "lease-lost", `Cannot finish upload ${uploadId}: its lease ended; send it again`, {
    headers: { "Retry-After": "1" },
  });
}

/**
 * `inner`, writing for the upload `holder` admitted.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import { R2Store } from "../store/r2-store.ts";
 * import { Heartbeat } from "./heartbeat.ts";
 * declare const env: { BUCKET: R2Bucket; COORDINATOR: DurableObjectNamespace<FileCoordinator> };
 * const coordinator = env.COORDINATOR.getByName("primes");
 * const { uploadId } = await coordinator.beginUpload(60_000);
 * const heartbeat = new Heartbeat(() => coordinator.renewUpload(uploadId, 60_000), 60_000);
 * const store = new LeasedStore(new R2Store(env.BUCKET), { uploadId, coordinator, heartbeat });
 * ```
 */
export class LeasedStore implements ObjectStore {
  readonly #inner: ObjectStore;
  readonly #holder: UploadLeaseHolder;

  /** Wraps `inner` for the upload `holder` admitted. */
  constructor(inner: ObjectStore, holder: UploadLeaseHolder) {
    this.#inner = inner;
    this.#holder = holder;
  }

  #assertLeased(): void {
    if (this.#holder.heartbeat.lost) throw leaseLost(this.#holder.uploadId);
  }

  put(key: string, data: Uint8Array): Promise<StoredObject> {
    this.#assertLeased();
    return this.#inner.put(key, data);
  }

  putIfMatch(key: string, data: Uint8Array, expected: string | null): Promise<StoredObject | null> {
    this.#assertLeased();
    return this.#inner.putIfMatch(key, data, expected);
  }

  async createMultipartWrite(key: string): Promise<MultipartWrite> {
    this.#assertLeased();
    const { uploadId, coordinator } = this.#holder;
    const write = await this.#inner.createMultipartWrite(key);
    if (!(await coordinator.recordMultipart(uploadId, key, write.id))) {
      await write.abort();
      throw leaseLost(uploadId);
    }
    return {
      id: write.id,
      uploadPart: (partNumber: number, data: Uint8Array): Promise<UploadedPart> => {
        this.#assertLeased();
        return write.uploadPart(partNumber, data);
      },
      complete: async (parts: UploadedPart[]): Promise<StoredObject> => {
        this.#assertLeased();
        const stored = await write.complete(parts);
        await coordinator.completedMultipart(write.id);
        return stored;
      },
      abort: () => write.abort(),
    };
  }

  abortMultipart(key: string, id: string): Promise<void> {
    return this.#inner.abortMultipart(key, id);
  }

  get(key: string, range?: ObjectRange) {
    return this.#inner.get(key, range);
  }

  list(prefix: string, options?: Parameters<ObjectStore["list"]>[1]) {
    return this.#inner.list(prefix, options);
  }

  delete(keys: string[]): Promise<void> {
    return this.#inner.delete(keys);
  }
}
