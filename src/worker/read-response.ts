/**
 * The answer of a read of a version's bytes (its content, or one part): after the conditional headers, `304`, or
 * the whole representation (`200`) or the one byte range asked for (`206`, `Content-Range`), or `416` for a range
 * past the end; every answer carries the version's validators and `Accept-Ranges: bytes`. The bytes are sent as they
 * are stored (`Content-Encoding: identity`), so their `Content-Length`, `Content-Range` and strong `ETag` hold for
 * what arrives, and as an attachment named after the file.
 *
 * @module
 */
import { causedBy } from "../store/caused-by.ts";
import { SubrequestLimitError } from "../store/subrequest-limit-error.ts";
import { type ByteRange, contentRange, requestedRange } from "./byte-range.ts";
import { HttpError } from "./http-error.ts";
import { readDecision } from "./read-preconditions.ts";
import { type VersionStamp, validatorHeaders } from "./validators.ts";

/**
 * What a read of `what` (e.g. `"primes"`), `size` bytes of `version` saved as `filename`, answers `request`: a response
 * to send as it is (a `304`, or for a `HEAD` the headers of the `200` or `206` a `GET` gets, so that no byte is read),
 * or the bytes to send, `null` for all of them.
 *
 * @throws {HttpError} `412 precondition-failed` (see `readDecision`); `416 range-not-satisfiable` with
 * `Content-Range` naming the size.
 * @example
 * ```ts
 * const version = { uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" };
 * const request = new Request("https://x/", { headers: { Range: "bytes=-10" } });
 * rangeToSend(request, "primes", version, 100, "primes"); // { offset: 90, length: 10 }
 * ```
 */
export function rangeToSend(
  request: Request,
  what: string,
  version: VersionStamp,
  size: number,
  filename: string,
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
  if (request.method === "HEAD") return bytesResponse(null, version, size, range, filename);
  return range;
}

/**
 * The `200` (whole, `range` `null`) or `206` (`range`) response of `body`, the bytes of a representation of `size`
 * bytes of `version` (`null` for the answer to a `HEAD`: the same headers, no body), to be saved as `filename`.
 *
 * `Content-Encoding: identity` keeps the local runtime from compressing it: it gzips `text/plain` for a client that
 * accepts gzip unless the response names an encoding of its own, and ignores `Cache-Control: no-transform` (which
 * the worker sends too, for proxies and CDNs). A compressed answer would lose its `Content-Length`, carry a `206`
 * body that `Content-Range` does not count, and label another representation with the same strong `ETag`.
 *
 * @example
 * ```ts
 * declare const body: ReadableStream<Uint8Array>; // the last 10 bytes of the version's 100
 * const version = { uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" };
 * const response = bytesResponse(body, version, 100, { offset: 90, length: 10 }, "primes");
 * ```
 */
export function bytesResponse(
  body: ReadableStream<Uint8Array> | null,
  version: VersionStamp,
  size: number,
  range: ByteRange | null,
  filename: string,
): Response {
  const headers: Record<string, string> = {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Encoding": "identity",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Content-Length": String(range?.length ?? size),
    "Accept-Ranges": "bytes",
    ...validatorHeaders(version),
  };
  if (range === null) return new Response(body, { headers });
  return new Response(body, { status: 206, headers: { ...headers, "Content-Range": contentRange(range, size) } });
}

/**
 * `error`, a failure of a read before its first byte went out, as the answer it deserves: when the platform refused a
 * subrequest the worker had counted on (a `SubrequestLimitError` of a meter, or the platform's "Too many
 * subrequests"), `503 subrequest-limit`, naming the `subrequests` the worker counts on and what to set; any other
 * error as it is. Only a worker whose `PLAN` or `SUBREQUEST_LIMIT` promise more than the platform grants meets it.
 *
 * @example
 * ```ts
 * import type { HttpError } from "./http-error.ts";
 * const error = new Error("Too many subrequests.");
 * (readRefusal(error, 'read "primes"', { plan: "paid", subrequests: 10_000 }) as HttpError).status; // 503
 * ```
 */
export function readRefusal(error: unknown, action: string, settings: { plan: string; subrequests: number }): unknown {
  if (!refusedSubrequest(error)) return error;
  return new HttpError(
    503,
    "subrequest-limit",
    `Cannot ${action}: the platform refused a subrequest, though this worker counts on ${settings.subrequests} ` +
      `a request (PLAN "${settings.plan}"); on Workers Free set PLAN = "free" (or SUBREQUEST_LIMIT to the plan's ` +
      "limit) so that reads fit within it",
    { cause: error, extra: { subrequests: settings.subrequests } },
  );
}

/** Whether `error`, or an error in its `cause` chain, is a refusal of a subrequest past the request's limit. */
function refusedSubrequest(error: unknown): boolean {
  if (causedBy(error, SubrequestLimitError)) return true;
  for (let current = error; current instanceof Error; current = current.cause) {
    if (/too many subrequests/i.test(current.message)) return true;
  }
  return false;
}
