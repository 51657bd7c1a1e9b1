/**
 * One PATCH of a tus upload of a named file: its bytes, wherever they begin and end, stored as the lines they
 * complete, in a segment of the upload's session; the incomplete line they end in kept in the upload's record for
 * the next PATCH; the PATCH that reaches `Upload-Length` publishes the file. A bad line is answered with its line,
 * column and offset in the whole file, and the upload is removed.
 *
 * @module
 */
import type { TusRecord } from "../coordinator/tus-record.ts";
import type { TusAccept } from "../coordinator/tus-uploads.ts";
import { summarizeSegment } from "../files/segment-summary.ts";
import { CompleteLinesStream, type HeldLine } from "../numbers/complete-lines-stream.ts";
import { NumberParseError } from "../numbers/number-parse-error.ts";
import { causedBy } from "../store/caused-by.ts";
import { base64ToBytes, bytesToBase64 } from "./base64.ts";
import { BodyChecksum } from "./body-checksum.ts";
import { BodyDigest } from "./body-digest.ts";
import { type Admission, coordinatedUpload } from "./coordinated-upload.ts";
import { HttpError, toHttpError } from "./http-error.ts";
import { budgetUpload } from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import { MAX_SEGMENTS } from "./session-routes.ts";
import type { Settings } from "./settings.ts";
import { type ByteStage, storeRequestBody } from "./store-request-body.ts";
import { patchSuperseded, type TusPatch } from "./tus-patch.ts";
import { preconditionFailed } from "./write-preconditions.ts";

/**
 * Stores the body of `request` as PATCH `patch` of a file's upload; resolves with what the coordinator accepted (the
 * new offset, and the manifest when the PATCH published the file).
 *
 * @throws {HttpError} `400 invalid-number` with the file's `line`, `column` and `offset` (the upload is then removed),
 * `460 checksum-mismatch`, `409 patch-superseded` when a later PATCH of the upload began meanwhile, the completion's
 * refusals (`412`, `413`, `502`), and the body's (`400 length-mismatch`, `408`, `413`).
 */
export async function storeFilePatch(
  request: Request,
  scope: RequestScope,
  settings: Settings,
  patch: TusPatch,
): Promise<Extract<TusAccept, { accepted: true }>> {
  const { id, coordinator, record, attemptId, length } = patch;
  const held: HeldLine = { bytes: base64ToBytes(record.held), skipped: record.heldSkipped };
  const cut = new CompleteLinesStream({
    held,
    complete: () => length !== null && record.offset + cut.inputBytes === length,
  });
  const digest = new BodyDigest();
  const checksum = patch.checksum === undefined ? undefined : new BodyChecksum(patch.checksum);
  const stages: ByteStage[] = checksum ? [checksum.stage, cut, digest.stage] : [cut, digest.stage];
  let accepted: Extract<TusAccept, { accepted: true }> | undefined;
  const admission: Admission = {
    admit: async () => attemptId,
    finish: async (writeId, manifest) => {
      await checksum?.check();
      const received = cut.inputBytes;
      const next = cut.held;
      // The segment's bytes are those of the file it stands for: leading zeros shortened in a held line count too.
      const segment =
        manifest.source.kind === "upload" && manifest.source.bytes > 0
          ? {
              ...summarizeSegment(record.segments, manifest, await digest.value(), digest.endsWithLineBreak),
              bytes: cut.originalBytes,
            }
          : null;
      const completes = length !== null && record.offset + received === length;
      const result = await coordinator.tusAcceptPatch(
        id,
        writeId,
        {
          from: record.offset,
          offset: record.offset + received,
          length,
          held: bytesToBase64(next.bytes),
          heldSkipped: next.skipped,
          segment,
          completes,
        },
        { maxBytes: settings.maxUploadBytes, maxNumbers: settings.maxUploadNumbers },
        settings.readGraceMs,
      );
      if (!result.accepted) throw refusal(record, result);
      accepted = result;
    },
  };
  try {
    budgetUpload(scope.budget, patch.declared, record.maxPartBytes);
    if (record.segments >= MAX_SEGMENTS) {
      throw new HttpError(
        413,
        "too-many-patches",
        `Cannot take another PATCH: the upload has ${MAX_SEGMENTS} already; send the rest in larger chunks`,
      );
    }
    const options = {
      coordinator,
      name: record.name ?? "",
      leaseMs: settings.leaseMs,
      store: scope.store,
      budget: scope.budget,
      admission,
    };
    await coordinatedUpload(options, (admitted) =>
      storeRequestBody(request, {
        ...admitted,
        name: record.name ?? "",
        maxPartBytes: record.maxPartBytes,
        maxUploadBytes: patch.maxBytes,
        maxNumbers: settings.maxUploadNumbers,
        pace: settings.bodyPace,
        through: stages,
      }),
    );
  } catch (error) {
    const bad = causedBy(error, NumberParseError);
    if (bad === undefined) throw error;
    await coordinator.tusRemove(id).catch(() => undefined);
    throw badLine(record, held, cut, bad, error);
  }
  if (accepted === undefined) throw new HttpError(500, "internal", "Cannot finish the PATCH: it was never accepted");
  return accepted;
}

/** The error a refused acceptance answers. */
function refusal(record: TusRecord, result: Exclude<TusAccept, { accepted: true }>): HttpError {
  const what = `Cannot store "${record.name}"`;
  if (result.reason === "superseded") return patchSuperseded(`"${record.name}"`);
  const { completion } = result;
  switch (completion.reason) {
    case "precondition-failed": {
      const name = record.name ?? "";
      const refused = preconditionFailed(`store "${name}"`, name, completion.current);
      return new HttpError(412, refused.code, `${refused.message}; the upload was removed`, { extra: refused.extra });
    }
    case "too-large":
      return new HttpError(413, "file-too-large", `${what}: ${completion.detail}`);
    case "storage-failed":
      return new HttpError(502, "storage-failed", `${what}: ${completion.detail}; send the last PATCH again`);
    case "not-found":
      return new HttpError(404, "no-such-upload", `${what}: the upload is gone`);
    case "incomplete":
      return new HttpError(500, "internal", `${what}: segments ${completion.indexes} are missing`);
  }
}

/**
 * The `400 invalid-number` of a bad line found in a PATCH: its position in the PATCH's lines (the held line first)
 * told in the whole file.
 */
function badLine(
  record: TusRecord,
  held: HeldLine,
  cut: CompleteLinesStream,
  bad: NumberParseError,
  cause: unknown,
): HttpError {
  const start = record.offset - held.bytes.byteLength - held.skipped;
  const position = cut.originalPosition(bad);
  const error = new NumberParseError({
    reason: bad.reason,
    line: record.lines + bad.line,
    column: position.column,
    offset: start + position.offset,
    byte: bad.byte,
    expected: bad.expected,
  });
  const refused = toHttpError(error);
  return new HttpError(refused.status, refused.code, `${refused.message}; the upload was removed`, {
    cause,
    extra: refused.extra,
  });
}
