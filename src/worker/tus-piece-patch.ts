/**
 * One PATCH of a partial tus upload (`Upload-Concat: partial`): a slice of a file whose lines cannot be told apart
 * until the slices before it are known, so its bytes are kept as they came, one object per PATCH (a piece), until a
 * final upload reads the pieces of all its partial uploads in order as one body (`tus-final.ts`).
 *
 * @module
 */
import type { TusAccept } from "../coordinator/tus-uploads.ts";
import { uploadPrefix } from "../split/object-keys.ts";
import { PUT_STREAM_CHUNK_BYTES, putStream } from "../store/put-stream.ts";
import { BodyChecksum } from "./body-checksum.ts";
import { type Admission, coordinatedUpload } from "./coordinated-upload.ts";
import { HttpError } from "./http-error.ts";
import type { RequestScope } from "./request-scope.ts";
import type { Settings } from "./settings.ts";
import { requestBytes } from "./store-request-body.ts";
import { patchSuperseded, type TusPatch } from "./tus-patch.ts";
import { limitBytes } from "./upload-limits.ts";

/** Subrequests a piece may take besides its writes: the PATCH's acceptance, and the clean-up kept in hand. */
const PIECE_CALLS = 2;

/**
 * Stores the body of `request` as a piece of a partial upload; resolves with what the coordinator accepted.
 *
 * @throws {HttpError} `460 checksum-mismatch`, `409 patch-superseded` when a later PATCH of the upload began
 * meanwhile, `422 over-budget`, and the body's refusals (`400 length-mismatch`, `408`, `413`).
 */
export async function storePiecePatch(
  request: Request,
  scope: RequestScope,
  settings: Settings,
  patch: TusPatch,
): Promise<Extract<TusAccept, { accepted: true }>> {
  const { id, coordinator, record, attemptId, length } = patch;
  // One write per chunk of a multipart write, and its start and completion.
  const writes = Math.max(1, Math.ceil((patch.declared ?? patch.maxBytes) / PUT_STREAM_CHUNK_BYTES) + 2);
  scope.budget.check(
    writes + PIECE_CALLS,
    `store a PATCH of ${patch.declared ?? "up to"} bytes`,
    "send smaller chunks (tus-js-client and Uppy: chunkSize)",
  );
  const checksum = patch.checksum === undefined ? undefined : new BodyChecksum(patch.checksum);
  const admission: Admission = {
    admit: async () => attemptId,
    finish: async () => undefined,
  };
  const options = {
    coordinator,
    name: patch.owner,
    leaseMs: settings.leaseMs,
    store: scope.store,
    admission,
  };
  const accepted = await coordinatedUpload(options, async ({ store }) => {
    const body = requestBytes(request, {
      pace: settings.bodyPace,
      drainOnCancel: Math.min(patch.declared ?? patch.maxBytes, patch.maxBytes),
    });
    const limited = body.pipeThrough(limitBytes(patch.maxBytes, patch.declared));
    const checked = checksum ? limited.pipeThrough(checksum.stage) : limited;
    const stored = await putStream(store, `${uploadPrefix(patch.owner, attemptId)}piece`, checked);
    await checksum?.check();
    const result = await coordinator.tusAcceptPiece(
      id,
      attemptId,
      record.offset,
      { key: stored.key, bytes: stored.size },
      length,
    );
    if (!result.accepted) throw patchSuperseded(`partial upload "${id}"`);
    return result;
  });
  if (accepted === null) throw new HttpError(500, "internal", "Cannot finish the PATCH: it was never accepted");
  return accepted;
}
