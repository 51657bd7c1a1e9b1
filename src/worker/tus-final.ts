/**
 * A final tus upload (`Upload-Concat: final;<partial> <partial> …`): the pieces of finished partial uploads read in
 * order as one body and stored exactly as one `POST /files/:name` of the same bytes (the same pipeline, so the same
 * content, totals and first bad line), published through the file's coordinator; then the partial uploads go.
 *
 * @module
 */
import type { TusRecord } from "../coordinator/tus-record.ts";
import type { WriteCondition } from "../coordinator/write-condition.ts";
import type { Manifest } from "../files/manifest.ts";
import { storeLines } from "../files/store-numbers.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { fromNativeStream } from "../streams/adapters/from-native.ts";
import { ReadableStream } from "../streams/engine/readable-stream.ts";
import { coordinatedUpload, wholeFile } from "./coordinated-upload.ts";
import { HttpError, toHttpError } from "./http-error.ts";
import { budgetUpload } from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import type { Settings } from "./settings.ts";
import { parseTusId, type TusId } from "./tus-id.ts";

/** Most partial uploads one final upload may join. */
export const MAX_PARTIAL_UPLOADS = 256;

/** What a final upload is made of. */
export interface FinalUpload {
  /** The file it stores. */
  name: string;
  /** The ids of its partial uploads, in order. */
  partials: string[];
  /** Part size limit of the file's parts. */
  maxPartBytes: number;
  /** The creation's `If-Match` / `If-None-Match`. */
  condition: WriteCondition | undefined;
}

/** A partial upload found finished, with its owner. */
interface FinishedPartial extends TusId {
  /** Its record. */
  record: TusRecord;
}

/**
 * Stores and publishes the final upload `final`; resolves with the manifest and the total length. The partial
 * uploads are removed once the file is published, and also when it can never be (a bad line, a condition that does
 * not hold, a limit), but kept after a storage failure so that the client can try again.
 *
 * @throws {HttpError} `404 no-such-upload` for an unknown partial upload, `400 not-partial` for one that is not
 * partial, `409 partial-unfinished` for one that has not received all its bytes, `413 file-too-large`, `422
 * over-budget`, and what storing the file throws (`400 invalid-number` with the file's line, column and offset).
 */
export async function storeFinalUpload(
  scope: RequestScope,
  settings: Settings,
  final: FinalUpload,
): Promise<{ manifest: Manifest; length: number }> {
  if (final.partials.length > MAX_PARTIAL_UPLOADS) {
    throw new HttpError(
      413,
      "too-many-partials",
      `Cannot concatenate ${final.partials.length} partial uploads: at most ${MAX_PARTIAL_UPLOADS} go into one file`,
    );
  }
  const partials: FinishedPartial[] = [];
  for (const text of final.partials) partials.push(await finishedPartial(scope, text));
  const length = partials.reduce((sum, partial) => sum + partial.record.offset, 0);
  if (length > settings.maxUploadBytes) {
    throw new HttpError(
      413,
      "file-too-large",
      `Cannot store "${final.name}": its partial uploads hold ${length} bytes, ` +
        `more than the ${settings.maxUploadBytes} a file may have`,
    );
  }
  const pieces = partials.flatMap((partial) => partial.record.pieces);
  scope.budget.check(
    pieces.length + partials.length,
    `read the ${pieces.length} pieces of ${partials.length} partial uploads and remove them`,
    "send the file in fewer, larger chunks or fewer parallel uploads",
  );
  scope.budget.reserve(pieces.length + partials.length);
  budgetUpload(scope.budget, length, final.maxPartBytes);
  const coordinator = scope.coordinatorOf(final.name);
  const graceMs = settings.readGraceMs;
  const admission = wholeFile(coordinator, final.name, { leaseMs: settings.leaseMs, graceMs }, "", final.condition);
  const options = {
    coordinator,
    name: final.name,
    leaseMs: settings.leaseMs,
    store: scope.store,
    budget: scope.budget,
    admission,
  };
  let manifest: Manifest | null;
  try {
    manifest = await coordinatedUpload(options, (admitted) => {
      scope.budget.release();
      scope.budget.reserve(partials.length + 1);
      return storeLines(
        piecesStream(
          scope.store,
          pieces.map((piece) => piece.key),
        ),
        {
          ...admitted,
          name: final.name,
          maxPartBytes: final.maxPartBytes,
          maxNumbers: settings.maxUploadNumbers,
          source: ({ bytes, lines, canonical }) => ({ kind: "upload", bytes, lines, canonical }),
        },
      );
    });
  } catch (error) {
    // A refusal (4xx: a bad line, a condition, a limit) can never succeed with these partial uploads.
    const { status } = toHttpError(error);
    if (status >= 400 && status < 500) await removePartials(scope, partials);
    throw error;
  }
  if (manifest === null) throw new HttpError(500, "internal", `Cannot store "${final.name}": it was not admitted`);
  scope.budget.release();
  await removePartials(scope, partials);
  return { manifest, length };
}

/** The partial upload of the URL segment `text`, checked to be partial and finished. */
async function finishedPartial(scope: RequestScope, text: string): Promise<FinishedPartial> {
  const tusId = parseTusId(text);
  const record = await scope.ownerOf(tusId.owner).tusGet(tusId.id);
  if (record === null) throw new HttpError(404, "no-such-upload", `No partial upload "${text}" (unknown or expired)`);
  if (record.kind !== "partial") {
    throw new HttpError(400, "not-partial", `Cannot concatenate upload "${text}": it is not a partial upload`);
  }
  if (record.state !== "done") {
    throw new HttpError(
      409,
      "partial-unfinished",
      `Cannot concatenate upload "${text}": it has ${record.offset} of its ${record.length ?? "(deferred)"} bytes`,
    );
  }
  return { ...tusId, record };
}

/** The objects under `keys`, read one after another as one byte stream. */
function piecesStream(store: ObjectStore, keys: string[]): ReadableStream<Uint8Array> {
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for (const key of keys) {
      const object = await store.get(key);
      if (object === null) {
        throw new HttpError(
          409,
          "partial-gone",
          `Cannot read a piece of a partial upload ("${key}"): it was removed meanwhile`,
        );
      }
      yield* fromNativeStream(object.body);
    }
  }
  return ReadableStream.from(bytes());
}

/** Removes the partial uploads (their pieces go with them); a failure leaves them to expire. */
async function removePartials(scope: RequestScope, partials: FinishedPartial[]): Promise<void> {
  for (const partial of partials) {
    await scope
      .ownerOf(partial.owner)
      .tusRemove(partial.id)
      .catch(() => undefined);
  }
}
