/**
 * The parsers of the HTTP API's replies: each reads one route's body (or headers) and checks every field it
 * promises, so that a client gets typed values or a {@linkcode ReplyFormatError} naming the field that was wrong,
 * never a cast over whatever arrived. The worker's own replies are tested to pass them (`test/worker/contract`).
 *
 * @module
 */
import type { FileSummary } from "../files/file-catalog.ts";
import type { SearchResult } from "../files/line-reads.ts";
import { type Manifest, parseManifest } from "../files/manifest.ts";
import type {
  ErrorBody,
  FileList,
  OpenSessionEntry,
  RemnantsRemoved,
  SegmentReceipt,
  SessionDescription,
  SessionWithSegments,
  SweepResult,
  UploadInFlight,
  UploadsListing,
  WorkerLimits,
} from "./bodies.ts";
import { isErrorCode } from "./error-code.ts";
import { LINE_COUNT_HEADER, LINE_FROM_HEADER, LINE_TOTAL_HEADER } from "./headers.ts";
import { ReplyFields } from "./reply-fields.ts";
import { ReplyFormatError } from "./reply-format-error.ts";

/** What every parser here throws for a reply that is not of its shape. */
export { ReplyFormatError } from "./reply-format-error.ts";

/**
 * The manifest of `GET /files/:name` (and of the `201` of an upload), checked by the files layer's
 * `parseManifest`.
 *
 * @throws {ReplyFormatError} when it is not a manifest this code reads (the files layer's error as `cause`).
 * @example
 * ```ts
 * parseManifestReply("{}"); // throws ReplyFormatError "Cannot read the reply to GET /files/:name: the body is …"
 * ```
 */
export function parseManifestReply(text: string): Manifest {
  try {
    return parseManifest(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ReplyFormatError("GET /files/:name", "", `is not a manifest (${detail})`, { cause: error });
  }
}

/**
 * One page of `GET /files`.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseFileList('{"files":[],"cursor":null}'); // { files: [], cursor: null }
 * ```
 */
export function parseFileList(text: string): FileList {
  const body = ReplyFields.parse(text, "GET /files");
  return { files: body.objects("files", fileSummary), cursor: body.nullableString("cursor") };
}

function fileSummary(file: ReplyFields): FileSummary {
  return {
    name: file.string("name"),
    createdAt: file.string("createdAt"),
    totals: file.object("totals", (totals) => ({
      parts: totals.number("parts"),
      bytes: totals.number("bytes"),
      numbers: totals.number("numbers"),
    })),
  };
}

/**
 * The limits of `GET /limits`.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseWorkerLimits('{"plan":"gold"}'); // throws ReplyFormatError "Cannot read the reply to GET /limits: \"plan\" …"
 * ```
 */
export function parseWorkerLimits(text: string): WorkerLimits {
  const body = ReplyFields.parse(text, "GET /limits");
  return {
    plan: body.oneOf("plan", ["free", "paid"]),
    subrequests: body.number("subrequests"),
    maxSegmentBytes: body.number("maxSegmentBytes"),
    maxUploadBytes: body.number("maxUploadBytes"),
    maxUploadNumbers: body.number("maxUploadNumbers"),
    defaultMaxPartBytes: body.number("defaultMaxPartBytes"),
    maxSegments: body.number("maxSegments"),
  };
}

/**
 * What `GET /files/:name/uploads` lists in flight.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseUploadsListing('{"name":"p","current":null,"uploads":[],"sessions":[],"reads":0}').reads; // 0
 * ```
 */
export function parseUploadsListing(text: string): UploadsListing {
  const body = ReplyFields.parse(text, "GET /files/:name/uploads");
  return {
    name: body.string("name"),
    current: body.nullableString("current"),
    uploads: body.objects("uploads", uploadInFlight),
    sessions: body.objects("sessions", openSession),
    reads: body.number("reads"),
  };
}

function uploadInFlight(upload: ReplyFields): UploadInFlight {
  return {
    attemptId: upload.string("attemptId"),
    state: upload.oneOf("state", ["writing", "publishing"]),
    startedAt: upload.string("startedAt"),
    leaseExpiresAt: upload.string("leaseExpiresAt"),
    attempt: upload.nullableString("attempt"),
  };
}

function openSession(session: ReplyFields): OpenSessionEntry {
  return {
    sessionId: session.string("sessionId"),
    createdAt: session.string("createdAt"),
    expiresAt: session.string("expiresAt"),
    segments: session.number("segments"),
    writing: session.number("writing"),
  };
}

/**
 * The session that `POST /files/:name/uploads` opened.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseSessionDescription('{"sessionId":7}'); // throws ReplyFormatError "Cannot read the reply to POST …"
 * ```
 */
export function parseSessionDescription(text: string): SessionDescription {
  return sessionDescription(ReplyFields.parse(text, "POST /files/:name/uploads"));
}

function sessionDescription(body: ReplyFields): SessionDescription {
  return {
    sessionId: body.string("sessionId"),
    name: body.string("name"),
    state: body.oneOf("state", ["open", "completed"]),
    maxPartBytes: body.number("maxPartBytes"),
    segmentMaxBytes: body.number("segmentMaxBytes"),
    createdAt: body.string("createdAt"),
    expiresAt: body.string("expiresAt"),
  };
}

/**
 * The session of `GET /files/:name/uploads/:sessionId`, with its received segments.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseSessionWithSegments("[]"); // throws ReplyFormatError "Cannot read the reply to GET …"
 * ```
 */
export function parseSessionWithSegments(text: string): SessionWithSegments {
  const body = ReplyFields.parse(text, "GET /files/:name/uploads/:sessionId");
  return { ...sessionDescription(body), segments: body.objects("segments", segmentReceipt) };
}

/**
 * The receipt of a segment that `PUT /files/:name/uploads/:sessionId/segments/:index` stored.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseSegmentReceipt('{"index":"0"}'); // throws ReplyFormatError "Cannot read the reply to PUT …"
 * ```
 */
export function parseSegmentReceipt(text: string): SegmentReceipt {
  return segmentReceipt(ReplyFields.parse(text, "PUT /files/:name/uploads/:sessionId/segments/:index"));
}

function segmentReceipt(segment: ReplyFields): SegmentReceipt {
  return {
    index: segment.number("index"),
    bytes: segment.number("bytes"),
    lines: segment.number("lines"),
    numbers: segment.number("numbers"),
    first: segment.nullableNumber("first"),
    last: segment.nullableNumber("last"),
    canonical: segment.boolean("canonical"),
    sorted: segment.nullableBoolean("sorted"),
    endsWithLineBreak: segment.boolean("endsWithLineBreak"),
    digest: segment.string("digest"),
    parts: segment.number("parts"),
  };
}

/**
 * One step of `POST /sweep`.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseSweepResult('{"names":2,"removed":5,"cursor":null}'); // { names: 2, removed: 5, cursor: null }
 * ```
 */
export function parseSweepResult(text: string): SweepResult {
  const body = ReplyFields.parse(text, "POST /sweep");
  return { names: body.number("names"), removed: body.number("removed"), cursor: body.nullableString("cursor") };
}

/**
 * The `200` of `DELETE /files/:name` on a name that held only leftovers.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseRemnantsRemoved('{"name":"p","removed":false,"remnants":3}').remnants; // 3
 * ```
 */
export function parseRemnantsRemoved(text: string): RemnantsRemoved {
  const body = ReplyFields.parse(text, "DELETE /files/:name");
  return { name: body.string("name"), removed: body.oneOf("removed", [false]), remnants: body.number("remnants") };
}

/**
 * The answer of `GET /files/:name/search`.
 *
 * @throws {ReplyFormatError} naming the field that is missing or of the wrong type.
 * @example
 * ```ts
 * parseSearchResult('{"index":4,"value":11,"found":true}'); // { index: 4, value: 11, found: true }
 * ```
 */
export function parseSearchResult(text: string): SearchResult {
  const body = ReplyFields.parse(text, "GET /files/:name/search");
  return { index: body.number("index"), value: body.nullableNumber("value"), found: body.boolean("found") };
}

/** Where the lines of a `GET /files/:name/lines` answer sit in the file, from its headers. */
export interface LinePosition {
  /** The first line's index (0-based), `Drainpipe-Line-From`. */
  from: number;
  /** How many lines the answer holds, `Drainpipe-Line-Count`. */
  count: number;
  /** How many lines the file has, `Drainpipe-Line-Total`. */
  total: number;
}

/**
 * The position headers of a `GET /files/:name/lines` answer, each a whole number.
 *
 * @throws {ReplyFormatError} naming the header that is missing or not a whole number.
 * @example
 * ```ts
 * import { LINE_COUNT_HEADER, LINE_FROM_HEADER, LINE_TOTAL_HEADER } from "./headers.ts";
 * const headers = new Headers({ [LINE_FROM_HEADER]: "2", [LINE_COUNT_HEADER]: "1", [LINE_TOTAL_HEADER]: "3" });
 * parseLinePosition(headers); // { from: 2, count: 1, total: 3 }
 * ```
 */
export function parseLinePosition(headers: Headers): LinePosition {
  const whole = (header: string) => {
    const text = headers.get(header);
    if (text === null || !/^[0-9]{1,16}$/.test(text)) {
      throw new ReplyFormatError("GET /files/:name/lines", header, "must be a header holding a whole number");
    }
    return Number(text);
  };
  return { from: whole(LINE_FROM_HEADER), count: whole(LINE_COUNT_HEADER), total: whole(LINE_TOTAL_HEADER) };
}

/**
 * The body of an error reply, any route's: a known {@linkcode ErrorCode} in `error`, a `detail`, and the facts
 * of {@linkcode ErrorBody} that are present, each checked (others are dropped).
 *
 * @throws {ReplyFormatError} when the body is not one (say, a proxy's HTML page, or a code this client does not
 * know), naming the field.
 * @example
 * ```ts
 * parseErrorBody('{"error":"invalid-number","detail":"line 3: …","line":3,"column":1,"offset":4}').line; // 3
 * parseErrorBody("<html>Bad Gateway</html>"); // throws ReplyFormatError "Cannot read the reply to an error status: …"
 * ```
 */
export function parseErrorBody(text: string): ErrorBody {
  const body = ReplyFields.parse(text, "an error status");
  const error = body.string("error");
  if (!isErrorCode(error))
    throw new ReplyFormatError("an error status", "error", `${JSON.stringify(error)} is unknown`);
  const reply: ErrorBody = { error, detail: body.string("detail") };
  const number = (key: string) => body.number(key);
  for (const key of NUMBER_FACTS) {
    const value = body.optional(key, number);
    if (value !== undefined) reply[key] = value;
  }
  for (const key of NUMBER_LIST_FACTS) {
    const value = body.optional(key, (field) => body.numbers(field));
    if (value !== undefined) reply[key] = value;
  }
  const reason = body.optional("reason", (field) => body.string(field));
  if (reason !== undefined) reply.reason = reason;
  if (body.has("etag")) reply.etag = body.nullableString("etag");
  return reply;
}

/** The facts of an error reply that are numbers. */
const NUMBER_FACTS = [
  "line",
  "column",
  "offset",
  "segment",
  "size",
  "lines",
  "needed",
  "available",
  "limit",
  "subrequests",
  "bytes",
  "timeoutMs",
  "chunkSize",
] as const satisfies readonly (keyof ErrorBody)[];

/** The facts of an error reply that are lists of numbers. */
const NUMBER_LIST_FACTS = ["missing", "segments"] as const satisfies readonly (keyof ErrorBody)[];
