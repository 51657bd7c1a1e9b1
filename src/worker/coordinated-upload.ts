/**
 * One upload under the file's coordinator: admitted with a lease, renewed while it runs, written through a
 * {@linkcode LeasedStore}, published by the coordinator, and abandoned (everything it wrote deleted) when it
 * fails. If the isolate dies instead, the lease runs out and the coordinator's alarm does the abandoning.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { Manifest } from "../files/manifest.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { Heartbeat } from "./heartbeat.ts";
import { HttpError } from "./http-error.ts";
import { LeasedStore, leaseLost } from "./leased-store.ts";

/** How many heartbeats fit in one lease: a renewal may fail this many times minus one before the lease ends. */
const BEATS_PER_LEASE = 4;

/** What {@linkcode coordinatedUpload} needs. */
export interface CoordinatedUploadOptions {
  /** The coordinator of `name`. */
  coordinator: DurableObjectStub<FileCoordinator>;
  /** The file name (already validated). */
  name: string;
  /** The lease length in milliseconds. */
  leaseMs: number;
  /** The client's own token for this attempt (`Drainpipe-Attempt` header), or `""`. */
  clientToken: string;
  /** Where the parts go. */
  store: ObjectStore;
}

/** What the upload runs with, once admitted: pass them to `storeNumbers`. */
export interface AdmittedUpload {
  /** The upload id the coordinator chose. */
  uploadId: string;
  /** The store to write parts through. */
  store: ObjectStore;
  /** Publishes the complete manifest through the coordinator. */
  publish: (manifest: Manifest) => Promise<void>;
}

/**
 * Runs `upload` as an admitted upload of `options.name` and returns its manifest.
 *
 * @example
 * ```ts
 * import { storeNumbers } from "../files/store-numbers.ts";
 * import { primeBatchStream } from "../numbers/prime-batch-stream.ts";
 * declare const options: CoordinatedUploadOptions;
 * const manifest = await coordinatedUpload(options, (admitted) =>
 *   storeNumbers(primeBatchStream(1000), {
 *     ...admitted,
 *     name: options.name,
 *     maxPartBytes: 1 << 20,
 *     source: () => ({ kind: "primes", count: 1000 }),
 *   }),
 * );
 * ```
 */
export async function coordinatedUpload(
  options: CoordinatedUploadOptions,
  upload: (admitted: AdmittedUpload) => Promise<Manifest>,
): Promise<Manifest> {
  const { coordinator, name, leaseMs } = options;
  const { uploadId } = await coordinator.beginUpload(name, leaseMs, options.clientToken);
  const heartbeat = new Heartbeat(() => coordinator.renewUpload(uploadId, leaseMs), leaseMs / BEATS_PER_LEASE);
  const publish = async (manifest: Manifest): Promise<void> => {
    const result = await coordinator.publish(name, uploadId, JSON.stringify(manifest, null, 2), leaseMs);
    if (result.published) return;
    if (result.reason === "expired") throw leaseLost(uploadId);
    throw new HttpError(502, "storage-failed", `Cannot publish "${name}": ${result.detail}`);
  };
  try {
    return await upload({
      uploadId,
      store: new LeasedStore(options.store, { uploadId, coordinator, heartbeat }),
      publish,
    });
  } catch (error) {
    await coordinator.abandonUpload(name, uploadId).catch(() => undefined);
    throw error;
  } finally {
    heartbeat.stop();
  }
}
