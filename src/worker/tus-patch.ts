/**
 * A PATCH of a tus upload as the routes hand it to what stores it (`tus-file-patch.ts` for a file's upload,
 * `tus-piece-patch.ts` for a partial upload), once the upload's coordinator has begun it.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { TusRecord } from "../coordinator/tus-record.ts";
import { HttpError } from "./http-error.ts";
import type { UploadChecksum } from "./tus-protocol.ts";

/** What storing a PATCH needs besides the request. */
export interface TusPatch {
  /** The upload's id. */
  id: string;
  /** The coordinator that owns the upload. */
  coordinator: DurableObjectStub<FileCoordinator>;
  /** Its name: the file's, or the partial upload's own (the folder of its pieces). */
  owner: string;
  /** The upload's record as the PATCH began it. */
  record: TusRecord;
  /** The attempt the coordinator admitted for this PATCH. */
  attemptId: string;
  /** The upload's length, when known (from the record, or from this PATCH's `Upload-Length`). */
  length: number | null;
  /** The most bytes this PATCH may carry. */
  maxBytes: number;
  /** The body's `Content-Length`, when it has one. */
  declared: number | undefined;
  /** The PATCH's `Upload-Checksum`, if any. */
  checksum: UploadChecksum | undefined;
}

/**
 * The `409 patch-superseded` of a PATCH that finished after a later PATCH of the same upload began: the later one is
 * the one that may finish.
 *
 * @example
 * ```ts
 * patchSuperseded("primes").status; // 409
 * ```
 */
export function patchSuperseded(what: string): HttpError {
  return new HttpError(
    409,
    "patch-superseded",
    `Cannot store the PATCH of ${what}: a later PATCH of this upload began meanwhile ` +
      "(ask HEAD for the offset and go on from there)",
  );
}
