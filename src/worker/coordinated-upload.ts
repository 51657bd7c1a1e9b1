/**
 * One upload under the file's coordinator: admitted with a lease, renewed while it runs, written through a
 * {@linkcode LeasedStore}, published (or, for a segment of a session, accepted) by the coordinator, and
 * abandoned (everything it wrote deleted) when it fails. If the isolate dies instead, the lease runs out and the
 * coordinator's alarm does the abandoning.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { WriteCondition } from "../coordinator/write-condition.ts";
import type { Manifest } from "../files/manifest.ts";
import type { ObjectStore } from "../store/object-store.ts";
import type { RequestBudget } from "../store/request-budget.ts";
import { Heartbeat } from "./heartbeat.ts";
import { HttpError } from "./http-error.ts";
import { LeasedStore, leaseLost } from "./leased-store.ts";
import { preconditionFailed } from "./write-preconditions.ts";

/** How an upload is admitted and what ends it: a whole file, or one segment of a session. */
export interface Admission {
  /** Admits the upload; resolves with its upload id, or `null` when it may not start (an unknown session). */
  admit(): Promise<string | null>;
  /**
   * Publishes (or accepts) the finished upload's manifest; rejects with the `HttpError` to answer when the
   * coordinator refuses it (`lease-lost` when the lease ended, `storage-failed` when the manifest write failed).
   */
  finish(uploadId: string, manifest: Manifest): Promise<void>;
}

/** What {@linkcode coordinatedUpload} needs. */
export interface CoordinatedUploadOptions {
  /** The coordinator of `name`. */
  coordinator: DurableObjectStub<FileCoordinator>;
  /** The file name (already validated). */
  name: string;
  /** The lease length in milliseconds. */
  leaseMs: number;
  /** Where the parts go. */
  store: ObjectStore;
  /** Admission and publication: {@linkcode wholeFile}, or a session's segment. */
  admission: Admission;
  /**
   * The request's budget, when the caller reserved the clean-up call on it: released before abandoning a failed
   * upload, so that the clean-up runs even when the upload used up every other subrequest.
   */
  budget?: RequestBudget;
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
 * The admission of a whole file: a new version of `name`, published when complete. `clientToken` names the
 * attempt to the client (`Drainpipe-Attempt` header), or is `""`. With `condition`, the coordinator refuses the
 * upload (`412`) when the condition does not hold of the current version, at admission and again at publication
 * (when it then removes what the upload wrote).
 */
export function wholeFile(
  coordinator: DurableObjectStub<FileCoordinator>,
  name: string,
  { leaseMs, graceMs }: { leaseMs: number; graceMs: number },
  clientToken: string,
  condition?: WriteCondition,
): Admission {
  return {
    admit: async () => {
      const admitted = await coordinator.beginUploadIf(condition, leaseMs, clientToken);
      if ("reason" in admitted) throw preconditionFailed(`store "${name}"`, name, admitted.current);
      return admitted.uploadId;
    },
    finish: async (uploadId, manifest) => {
      const result = await coordinator.publish(uploadId, manifest, leaseMs, graceMs, condition);
      if (result.published) return;
      if (result.reason === "expired") throw leaseLost(uploadId);
      if (result.reason === "precondition-failed") throw preconditionFailed(`store "${name}"`, name, result.current);
      throw new HttpError(502, "storage-failed", `Cannot publish "${name}": ${result.detail}`);
    },
  };
}

/**
 * Runs `upload` as an admitted upload of `options.name` and returns its manifest; resolves `null` when the
 * admission refused to start it.
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
export async function coordinatedUpload<T = Manifest>(
  options: CoordinatedUploadOptions,
  upload: (admitted: AdmittedUpload) => Promise<T>,
): Promise<T | null> {
  const { coordinator, leaseMs, admission } = options;
  const uploadId = await admission.admit();
  if (uploadId === null) return null;
  const renew = () => coordinator.renewUpload(uploadId, leaseMs);
  const heartbeat = new Heartbeat(renew, leaseMs);
  const publish = (manifest: Manifest): Promise<void> => admission.finish(uploadId, manifest);
  const store = new LeasedStore(options.store, { uploadId, coordinator, heartbeat });
  try {
    return await upload({ uploadId, store, publish });
  } catch (error) {
    options.budget?.release();
    await coordinator.abandonUpload(uploadId).catch(() => undefined);
    throw error;
  } finally {
    heartbeat.stop();
  }
}
