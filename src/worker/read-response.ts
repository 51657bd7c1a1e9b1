/**
 * The answer of a read of a version's bytes (its content, or one part): after the conditional headers, `304`, or
 * the whole representation (`200`) or the one byte range asked for (`206`, `Content-Range`), or `416` for a range
 * past the end; every answer carries the version's validators and `Accept-Ranges: bytes`.
 *
 * @module
 */
import { type ByteRange, contentRange, requestedRange } from "./byte-range.ts";
import { HttpError } from "./http-error.ts";
import { readDecision } from "./read-preconditions.ts";
import { type VersionStamp, validatorHeaders } from "./validators.ts";

/**
 * What a read of `what` (e.g. `"primes"`), `size` bytes of `version`, answers `request`: a response to send as it
 * is (a `304`, or for a `HEAD` the headers of the `200` or `206` a `GET` gets, so that no byte is read), or the bytes
 * to send, `null` for all of them.
 *
 * @throws {HttpError} `412 precondition-failed` (see `readDecision`); `416 range-not-satisfiable` with
 * `Content-Range` naming the size.
 * @example
 * ```ts
 * const version = { uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" };
 * const request = new Request("https://x/", { headers: { Range: "bytes=-10" } });
 * plannedRead(request, "primes", version, 100); // { offset: 90, length: 10 }
 * ```
 */
export function plannedRead(
  request: Request,
  what: string,
  version: VersionStamp,
  size: number,
): Response | ByteRange | null {
  const decision = readDecision(request, what, version);
  if (decision === "not-modified") {
    return new Response(null, { status: 304, headers: { ...validatorHeaders(version), "Accept-Ranges": "bytes" } });
  }
  const range = decision === "range" ? requestedRange(request.headers.get("Range"), size) : null;
  if (range === "unsatisfiable") {
    throw new HttpError(
      416,
      "range-not-satisfiable",
      `Cannot read ${request.headers.get("Range")} of "${what}": it has ${size} bytes`,
      { headers: { "Content-Range": contentRange(range, size), ...validatorHeaders(version) }, extra: { size } },
    );
  }
  if (request.method === "HEAD") return bytesResponse(null, version, size, range);
  return range;
}

/**
 * The `200` (whole, `range` `null`) or `206` (`range`) response of `body`, the bytes of a representation of `size`
 * bytes of `version` (`null` for the answer to a `HEAD`: the same headers, no body).
 *
 * @example
 * ```ts
 * declare const body: ReadableStream<Uint8Array>; // the last 10 bytes of the version's 100
 * const version = { uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" };
 * const response = bytesResponse(body, version, 100, { offset: 90, length: 10 });
 * ```
 */
export function bytesResponse(
  body: ReadableStream<Uint8Array> | null,
  version: VersionStamp,
  size: number,
  range: ByteRange | null,
): Response {
  const headers: Record<string, string> = {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(range?.length ?? size),
    "Accept-Ranges": "bytes",
    ...validatorHeaders(version),
  };
  if (range === null) return new Response(body, { headers });
  return new Response(body, { status: 206, headers: { ...headers, "Content-Range": contentRange(range, size) } });
}
