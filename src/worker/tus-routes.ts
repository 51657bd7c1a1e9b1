/**
 * The tus resumable upload protocol 1.0.0 (tus.io), so that the clients people upload with (tus-js-client, Uppy, the
 * tus clients for other languages) can send drainpipe a file of any size:
 *
 * | route | does |
 * | --- | --- |
 * | `OPTIONS /tus` | the server's tus capabilities (no authentication: also the CORS preflight) |
 * | `POST /tus` | creates an upload (`201`, `Location: /tus/<id>`), and stores a body it carries; |
 * | | with `Upload-Concat: final;…`, publishes partial uploads as one file |
 * | `HEAD /tus/:id` | `Upload-Offset`, `Upload-Length` and the rest of the upload's state |
 * | `PATCH /tus/:id` | stores the bytes at `Upload-Offset` (`204` with the new offset); |
 * | | the PATCH that completes the upload publishes the file |
 * | `DELETE /tus/:id` | ends the upload and removes what it stored (`204`) |
 *
 * Extensions: creation, creation-with-upload, creation-defer-length, termination, checksum (`sha1`, `sha256`),
 * expiration (`UPLOAD_TTL`) and concatenation. A PATCH may end anywhere, inside a line too: what a file's upload
 * stores is exactly what one `POST /files/:name` of the same bytes stores.
 *
 * @module
 */

import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { TusRecord } from "../coordinator/tus-record.ts";
import { sanitizeName } from "../files/file-name.ts";
import { parseMaxPartBytes } from "../split/part-size.ts";
import { MAX_PARTS } from "../split/part-splitter.ts";
import { HttpError, toHttpError } from "./http-error.ts";
import { largestUpload } from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import { type Route, type RouteHandler, routeBuilder } from "./router.ts";
import type { Settings } from "./settings.ts";
import { storeFilePatch } from "./tus-file-patch.ts";
import { storeFinalUpload } from "./tus-final.ts";
import { newTusId, parseTusId, type TusId } from "./tus-id.ts";
import { storePiecePatch } from "./tus-piece-patch.ts";
import {
  byteCountHeader,
  httpDate,
  requireOffsetOctetStream,
  requireTusResumable,
  TUS_CHECKSUM_ALGORITHMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
  type UploadConcat,
  uploadChecksum,
  uploadConcat,
  uploadMetadata,
} from "./tus-protocol.ts";
import { declaredLength } from "./upload-limits.ts";
import { validatorHeaders } from "./validators.ts";
import { writeCondition } from "./write-preconditions.ts";

const route = routeBuilder<RequestScope>();

/** What the tus routes need. */
export interface TusRouteContext {
  /** The worker's settings. */
  settings: Settings;
  /** The path the API is mounted under (`""` at the root): upload URLs are `<prefix>/tus/<id>`. */
  prefix: string;
}

/**
 * The tus routes. The capabilities (`OPTIONS`) are public; every other tus request, `HEAD` too (it shows an
 * upload's state, which a client can act on), needs the token even when reads are public.
 *
 * @example
 * ```ts
 * import { createRouter } from "./router.ts";
 * import type { Settings } from "./settings.ts";
 * declare const settings: Settings;
 * const handle = createRouter(tusRoutes({ settings, prefix: "" }));
 * ```
 */
export function tusRoutes(context: TusRouteContext): Route<RequestScope>[] {
  const { settings, prefix } = context;

  const capabilities: Record<string, string> = {
    "Tus-Version": TUS_VERSION,
    "Tus-Extension": TUS_EXTENSIONS.join(","),
    "Tus-Max-Size": String(settings.maxUploadBytes),
    "Tus-Checksum-Algorithm": TUS_CHECKSUM_ALGORITHMS.join(","),
  };
  const options: RouteHandler<string, RequestScope> = async () =>
    new Response(null, { status: 204, headers: capabilities });

  /** The URL of upload `tusId`: a path under the API's prefix. */
  const uploadUrl = (tusId: TusId): string => `${prefix}/tus/${encodeURIComponent(tusId.id)}`;

  /** The most bytes one PATCH may carry for an upload in parts of `maxPartBytes`. */
  const patchLimit = (maxPartBytes: number): number =>
    Math.min(settings.maxSegmentBytes, largestUpload(settings.subrequests - 1, maxPartBytes));

  const create: RouteHandler<"/tus", RequestScope> = async ({ request, scope }) => {
    requireTusResumable(request);
    const concat = uploadConcat(request);
    const metadata = uploadMetadata(request);
    const maxPartBytes = parseMaxPartBytes(metadata.get("maxPartBytes") ?? null, settings.defaultMaxPartBytes);
    if (concat?.kind === "final") return createFinal(request, scope, concat, metadata, maxPartBytes);
    const length = creationLength(request, settings.maxUploadBytes);
    const name = concat?.kind === "partial" ? null : fileName(metadata);
    const tusId = newTusId(name);
    const coordinator = scope.ownerOf(tusId.owner);
    const created = await coordinator.tusCreate({
      id: tusId.id,
      kind: name === null ? "partial" : "file",
      name,
      length,
      metadata: request.headers.get("Upload-Metadata") ?? "",
      concat: null,
      condition: name === null ? null : (writeCondition(request) ?? null),
      maxPartBytes,
      ttlMs: settings.uploadTtlMs,
    });
    if (created === null) {
      throw new HttpError(
        429,
        "too-many-sessions",
        `Cannot create a tus upload of "${name}": it has too many uploads open; finish or end one first`,
      );
    }
    if ("reason" in created) {
      throw new HttpError(
        412,
        "precondition-failed",
        `Cannot upload "${name}": If-Match / If-None-Match rules it out`,
        {
          extra: { etag: created.current === null ? null : `"${created.current}"` },
        },
      );
    }
    const headers: Record<string, string> = {
      Location: uploadUrl(tusId),
      "Upload-Expires": httpDate(created.expiresAt),
    };
    const carriesData = request.body !== null && request.headers.get("Content-Length") !== "0";
    if (carriesData || created.length === 0) {
      if (carriesData) requireOffsetOctetStream(request);
      const stored = await patch(request, scope, tusId, coordinator, 0);
      Object.assign(headers, stored);
    }
    return new Response(null, { status: 201, headers });
  };

  const createFinal = async (
    request: Request,
    scope: RequestScope,
    concat: Extract<UploadConcat, { kind: "final" }>,
    metadata: Map<string, string>,
    maxPartBytes: number,
  ): Promise<Response> => {
    if (request.headers.has("Upload-Length")) {
      throw new HttpError(
        400,
        "invalid-header",
        "Cannot create a final upload with Upload-Length: its partial uploads give it",
      );
    }
    const name = fileName(metadata);
    const condition = writeCondition(request);
    const { manifest, length } = await storeFinalUpload(scope, settings, {
      name,
      partials: concat.ids,
      maxPartBytes,
      condition,
    });
    const tusId = newTusId(name);
    const creation = {
      id: tusId.id,
      kind: "final",
      name,
      length,
      metadata: request.headers.get("Upload-Metadata") ?? "",
      concat: request.headers.get("Upload-Concat") ?? "",
      condition: condition ?? null,
      maxPartBytes,
      ttlMs: settings.uploadTtlMs,
    } as const;
    const expiresAt = Date.now() + settings.uploadTtlMs;
    // Kept only to answer HEAD: the file is published whether or not this is recorded.
    await scope
      .coordinatorOf(name)
      .tusRecordFinal(creation, manifest.uploadId)
      .catch(() => undefined);
    return new Response(null, {
      status: 201,
      headers: {
        ...validatorHeaders(manifest),
        Location: uploadUrl(tusId),
        "Upload-Offset": String(length),
        "Upload-Expires": httpDate(expiresAt),
      },
    });
  };

  /**
   * Stores the body of `request` at `offset` of upload `tusId`; resolves with the headers of the answer
   * (`Upload-Offset`, `Upload-Expires`).
   */
  const patch = async (
    request: Request,
    scope: RequestScope,
    tusId: TusId,
    coordinator: DurableObjectStub<FileCoordinator>,
    offset: number,
  ): Promise<Record<string, string>> => {
    const checksum = uploadChecksum(request);
    const givenLength = byteCountHeader(request, "Upload-Length") ?? null;
    const begun = await coordinator.tusBegin(tusId.id, offset, settings.leaseMs, givenLength);
    if (!begun.begun) {
      switch (begun.reason) {
        case "not-found":
          throw noUpload(tusId.id);
        case "done": {
          // An empty PATCH at the end of a complete upload (a client making sure of it) changes nothing.
          const empty = request.body === null || request.headers.get("Content-Length")?.trim() === "0";
          if (offset === begun.offset && empty) {
            return { "Upload-Offset": String(begun.offset) };
          }
          throw new HttpError(409, "upload-complete", `Cannot PATCH upload "${tusId.id}": it is complete`, {
            extra: { offset: begun.offset },
            headers: { "Upload-Offset": String(begun.offset) },
          });
        }
        case "offset-mismatch":
          throw new HttpError(
            409,
            "offset-mismatch",
            `Cannot PATCH upload "${tusId.id}" at offset ${offset}: it is at offset ${begun.offset} ` +
              "(ask HEAD for the offset and go on from there)",
            { extra: { offset: begun.offset }, headers: { "Upload-Offset": String(begun.offset) } },
          );
        case "length-mismatch":
          throw new HttpError(
            400,
            "length-mismatch",
            `Cannot change the length of upload "${tusId.id}": its Upload-Length is ${begun.length}`,
          );
      }
    }
    const { record, attemptId } = begun;
    const length = record.length ?? givenLength;
    const limit = patchLimit(record.maxPartBytes);
    const maxBytes = Math.min(limit, length === null ? Infinity : length - record.offset);
    try {
      const declared = declaredLength(request, Number.MAX_SAFE_INTEGER);
      refuseOversized(tusId.id, record, declared, length, limit);
      if (record.kind === "file") refuseTooManyParts(record, declared, length);
      const input = { ...tusId, coordinator, record, attemptId, length, maxBytes, declared, checksum };
      const accepted =
        record.kind === "partial"
          ? await storePiecePatch(request, scope, settings, input)
          : await storeFilePatch(request, scope, settings, input);
      return {
        "Upload-Offset": String(accepted.record.offset),
        "Upload-Expires": httpDate(accepted.record.expiresAt),
        ...(accepted.manifest ? validatorHeaders(accepted.manifest) : {}),
      };
    } catch (error) {
      await coordinator.abandonUpload(attemptId).catch(() => undefined);
      if (toHttpError(error).code !== "body-too-large") throw error;
      // A body without Content-Length that outgrew what the PATCH may carry.
      refuseOversized(tusId.id, record, maxBytes + 1, length, limit);
      throw error;
    }
  };

  const patchRoute: RouteHandler<"/tus/:id", RequestScope> = async ({ request, params: { id }, scope }) => {
    requireTusResumable(request);
    requireOffsetOctetStream(request);
    const offset = byteCountHeader(request, "Upload-Offset");
    if (offset === undefined) {
      throw new HttpError(400, "missing-offset", "Cannot PATCH without Upload-Offset: send the offset to write at");
    }
    const tusId = parseTusId(id);
    const headers = await patch(request, scope, tusId, scope.ownerOf(tusId.owner), offset);
    return new Response(null, { status: 204, headers });
  };

  const head: RouteHandler<"/tus/:id", RequestScope> = async ({ request, params: { id }, scope }) => {
    requireTusResumable(request);
    const tusId = parseTusId(id);
    const record = await scope.ownerOf(tusId.owner).tusGet(tusId.id);
    if (record === null) throw noUpload(tusId.id);
    const headers: Record<string, string> = {
      "Upload-Offset": String(record.offset),
      "Upload-Expires": httpDate(record.expiresAt),
      "Cache-Control": "no-store",
    };
    if (record.length === null) headers["Upload-Defer-Length"] = "1";
    else headers["Upload-Length"] = String(record.length);
    if (record.metadata !== "") headers["Upload-Metadata"] = record.metadata;
    if (record.kind === "partial") headers["Upload-Concat"] = "partial";
    if (record.kind === "final" && record.concat !== null) headers["Upload-Concat"] = record.concat;
    return new Response(null, { status: 200, headers });
  };

  const terminate: RouteHandler<"/tus/:id", RequestScope> = async ({ request, params: { id }, scope }) => {
    requireTusResumable(request);
    const tusId = parseTusId(id);
    if (!(await scope.ownerOf(tusId.owner).tusRemove(tusId.id))) throw noUpload(tusId.id);
    return new Response(null, { status: 204 });
  };

  /** `POST /tus/:id` with `X-HTTP-Method-Override` (clients behind proxies that drop PATCH and DELETE). */
  const overridden: RouteHandler<"/tus/:id", RequestScope> = async (call) => {
    const method = call.request.headers.get("X-HTTP-Method-Override")?.toUpperCase();
    if (method === "PATCH") return patchRoute(call);
    if (method === "DELETE") return terminate(call);
    throw new HttpError(405, "method-not-allowed", "Cannot POST an upload: use PATCH, HEAD or DELETE", {
      headers: { Allow: "OPTIONS, HEAD, PATCH, DELETE" },
    });
  };

  return [
    route("OPTIONS", "/tus", "public", options),
    route("POST", "/tus", "write", create),
    route("OPTIONS", "/tus/:id", "public", options),
    route("HEAD", "/tus/:id", "write", head),
    route("PATCH", "/tus/:id", "write", patchRoute),
    route("DELETE", "/tus/:id", "write", terminate),
    route("POST", "/tus/:id", "write", overridden),
  ];
}

/** The `Upload-Length` of a creation, or `null` for `Upload-Defer-Length: 1`. */
function creationLength(request: Request, maxUploadBytes: number): number | null {
  const length = byteCountHeader(request, "Upload-Length");
  const deferred = request.headers.get("Upload-Defer-Length");
  if (deferred !== null && deferred.trim() !== "1") {
    throw new HttpError(400, "invalid-header", `Cannot use Upload-Defer-Length "${deferred}": its only value is 1`);
  }
  if ((length === undefined) === (deferred === null)) {
    throw new HttpError(
      400,
      "missing-length",
      "Cannot create a tus upload: send either Upload-Length or Upload-Defer-Length: 1",
    );
  }
  if (length !== undefined && length > maxUploadBytes) {
    throw new HttpError(
      413,
      "file-too-large",
      `Cannot take an upload of ${length} bytes: a file may have at most ${maxUploadBytes} (Tus-Max-Size)`,
    );
  }
  return length ?? null;
}

/** The stored file's name: metadata `name`, else `filename`, made valid as the CLI makes a file name valid. */
function fileName(metadata: Map<string, string>): string {
  const given = metadata.get("name") || metadata.get("filename");
  const name = given === undefined ? null : sanitizeName(given);
  if (name === null) {
    throw new HttpError(
      400,
      "missing-name",
      given === undefined
        ? "Cannot create a tus upload without a file name: send Upload-Metadata with name (or filename)"
        : `Cannot store a file named "${given}": no letters or digits are left to name it by`,
    );
  }
  return name;
}

/**
 * Refuses, before anything is stored, a PATCH larger than one request may carry or than what the upload lacks.
 *
 * @throws {HttpError} `413 patch-too-large` naming the chunk size to use, or `413 upload-length-exceeded`.
 */
function refuseOversized(
  id: string,
  record: TusRecord,
  declared: number | undefined,
  length: number | null,
  limit: number,
): void {
  if (declared === undefined) return;
  if (declared > limit) {
    throw new HttpError(
      413,
      "patch-too-large",
      `Cannot take a PATCH of ${declared} bytes: one request may carry at most ${limit} bytes here; ` +
        `send chunks of at most ${limit} bytes (tus-js-client and Uppy: chunkSize: ${limit})`,
      { extra: { chunkSize: limit } },
    );
  }
  if (length !== null && record.offset + declared > length) {
    throw new HttpError(
      413,
      "upload-length-exceeded",
      `Cannot take ${declared} bytes at offset ${record.offset} of upload "${id}": its Upload-Length is ${length}`,
    );
  }
}

/**
 * Refuses the first PATCH of a file's upload whose chunks are so small that the file would end in more than
 * `MAX_PARTS` parts (every PATCH ends a part), rather than after all of it was sent.
 *
 * @throws {HttpError} `413 too-many-parts` naming the smallest chunk size that fits.
 */
function refuseTooManyParts(record: TusRecord, declared: number | undefined, length: number | null): void {
  if (declared === undefined || declared === 0 || length === null) return;
  const remaining = length - record.offset;
  if (declared >= remaining) return;
  const patches = Math.ceil(remaining / declared);
  const parts = record.parts + patches * Math.ceil(declared / record.maxPartBytes);
  if (parts <= MAX_PARTS) return;
  const fits = (size: number) =>
    record.parts + Math.ceil(remaining / size) * Math.ceil(size / record.maxPartBytes) <= MAX_PARTS;
  if (!fits(remaining)) {
    throw new HttpError(
      413,
      "too-many-parts",
      `Cannot store the file in parts of ${record.maxPartBytes} bytes: ` +
        `it would have more than the ${MAX_PARTS} parts ` +
        "a file may have; upload it with a larger maxPartBytes (Upload-Metadata)",
    );
  }
  let chunk = Math.ceil(remaining / Math.max(1, MAX_PARTS - record.parts));
  while (!fits(chunk)) chunk = Math.min(remaining, chunk * 2);
  throw new HttpError(
    413,
    "too-many-parts",
    `Cannot store the file in chunks of ${declared} bytes: every chunk ends a part, and the file would have ${parts} ` +
      `parts, more than the ${MAX_PARTS} a file may have; send chunks of at least ${chunk} bytes ` +
      `(tus-js-client and Uppy: chunkSize)`,
    { extra: { chunkSize: chunk } },
  );
}

/** The `404` of an upload that is unknown, expired or ended. */
function noUpload(id: string): HttpError {
  return new HttpError(404, "no-such-upload", `No tus upload "${id}" (unknown, expired or ended)`);
}
