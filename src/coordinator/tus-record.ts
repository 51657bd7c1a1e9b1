/**
 * What a coordinator keeps of one tus upload (tus 1.0.0, `/tus/<id>`), stored as JSON in its ledger and read back
 * through {@linkcode parseTusRecord}, which checks the format version and every field.
 *
 * @module
 */
import {
  arrayField,
  asObject,
  fail,
  type JsonFields,
  nullableNumberField,
  numberField,
  parseRecord,
  stringField,
} from "../files/record-format.ts";
import type { WriteCondition } from "./write-condition.ts";

/** The record's format version, bumped on incompatible changes. */
export const TUS_RECORD_VERSION = 1;

/**
 * The kinds of tus upload:
 * - `file`: a whole file of a known name, stored as it arrives (its lines go into the segments of an upload session
 *   in the name's coordinator) and published by the PATCH that completes it;
 * - `partial`: one slice of a file (`Upload-Concat: partial`), kept as the bytes it received in a coordinator of its
 *   own, until a `final` upload concatenates it;
 * - `final`: the concatenation of partial uploads (`Upload-Concat: final;…`), published when it is created.
 */
export type TusKind = "file" | "partial" | "final";

/** A piece of a partial upload: the bytes one PATCH stored, as one object. */
export interface TusPiece {
  /** The object's key. */
  key: string;
  /** Its size in bytes. */
  bytes: number;
}

/** One tus upload, as its coordinator keeps it. */
export interface TusRecord {
  /** Format version ({@linkcode TUS_RECORD_VERSION}). */
  version: number;
  /** The upload's id, the last segment of its URL. */
  id: string;
  /** What kind of upload it is. */
  kind: TusKind;
  /** The upload session holding what it stored (segments of a `file`, pieces of a `partial`). */
  sessionId: string;
  /** The file it stores (`file`, `final`), or `null` for a partial upload. */
  name: string | null;
  /** `Upload-Length`, or `null` while the client defers it. */
  length: number | null;
  /** The part size limit of the file's parts. */
  maxPartBytes: number;
  /** Bytes received and durably stored: what `HEAD` answers as `Upload-Offset`. */
  offset: number;
  /** The `Upload-Metadata` header the upload was created with, echoed by `HEAD`. */
  metadata: string;
  /** A final upload's `Upload-Concat` value, else `null`. */
  concat: string | null;
  /** `open` while bytes may arrive, `done` once published (a file or final) or complete (a partial). */
  state: "open" | "done";
  /** When it was created (ms since the epoch). */
  createdAt: number;
  /** When it expires (ms since the epoch): `Upload-Expires`. */
  expiresAt: number;
  /** The creation request's `If-Match` / `If-None-Match`, checked when the file is published. */
  condition: WriteCondition | null;
  /** The attempt of the newest PATCH begun; an older PATCH that finishes later is refused. */
  patch: string | null;
  /** Lines stored so far, blank ones included (a file upload's; its next line's number is one more). */
  lines: number;
  /** Segments stored so far (a file upload's). */
  segments: number;
  /** Parts stored so far (a file upload's). */
  parts: number;
  /** The incomplete last line received so far (base64), leading zeros shortened to one. */
  held: string;
  /** Zeros removed from the held line's leading run. */
  heldSkipped: number;
  /** The pieces of a partial upload, in order. */
  pieces: TusPiece[];
}

/**
 * Reads a tus record from its JSON and checks its version and every field.
 *
 * @throws {RecordFormatError} "Cannot read tus upload: …" when the text is not JSON, of another version, or a field
 * is missing or of the wrong type.
 * @example
 * ```ts
 * import { RecordFormatError } from "../files/record-format.ts";
 * parseTusRecord('{"version":9}'); // throws RecordFormatError "Cannot read tus upload: version 9 is not supported …"
 * ```
 */
export function parseTusRecord(text: string): TusRecord {
  const what = "tus upload";
  const fields = parseRecord(text, what);
  if (fields.version !== TUS_RECORD_VERSION) {
    fail(what, `version ${JSON.stringify(fields.version)} is not supported (expected ${TUS_RECORD_VERSION})`);
  }
  const kind = fields.kind;
  if (kind !== "file" && kind !== "partial" && kind !== "final") fail(what, `unknown kind ${JSON.stringify(kind)}`);
  const state = fields.state;
  if (state !== "open" && state !== "done") fail(what, `unknown state ${JSON.stringify(state)}`);
  return {
    version: TUS_RECORD_VERSION,
    id: stringField(fields, "id", what),
    kind,
    sessionId: stringField(fields, "sessionId", what),
    name: nullableString(fields, "name", what),
    length: nullableNumberField(fields, "length", what),
    maxPartBytes: numberField(fields, "maxPartBytes", what),
    offset: numberField(fields, "offset", what),
    metadata: stringField(fields, "metadata", what),
    concat: nullableString(fields, "concat", what),
    state,
    createdAt: numberField(fields, "createdAt", what),
    expiresAt: numberField(fields, "expiresAt", what),
    condition: conditionField(fields.condition, what),
    patch: nullableString(fields, "patch", what),
    lines: numberField(fields, "lines", what),
    segments: numberField(fields, "segments", what),
    parts: numberField(fields, "parts", what),
    held: stringField(fields, "held", what),
    heldSkipped: numberField(fields, "heldSkipped", what),
    pieces: arrayField(fields, "pieces", what).map((piece) => {
      const entry = asObject(piece, what, '"pieces" to hold objects');
      return { key: stringField(entry, "key", what), bytes: numberField(entry, "bytes", what) };
    }),
  };
}

function nullableString(fields: JsonFields, key: string, what: string): string | null {
  return fields[key] === null ? null : stringField(fields, key, what);
}

function conditionField(value: unknown, what: string): WriteCondition | null {
  if (value === null) return null;
  const fields = asObject(value, what, '"condition" to be an object or null');
  const condition: WriteCondition = {};
  for (const key of ["ifMatch", "ifNoneMatch"] as const) {
    const entry = fields[key];
    if (entry === undefined) continue;
    if (entry === "any") condition[key] = "any";
    else if (Array.isArray(entry) && entry.every((tag) => typeof tag === "string")) condition[key] = entry;
    else fail(what, `"condition.${key}" must be "any" or a list of strings`);
  }
  return condition;
}
