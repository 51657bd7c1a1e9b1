/**
 * The conditional headers of a read (RFC 9110 §13.2.2), evaluated against the version it would serve:
 * `If-Match` and `If-Unmodified-Since` (412 when stale), `If-None-Match` and `If-Modified-Since` (304 when the
 * client's copy is current), and `If-Range` (a stale one turns a range request into a whole one).
 *
 * @module
 */
import { HttpError } from "./http-error.ts";
import { lastModified, matchesVersion, parseEntityTags, type VersionStamp, versionEtag } from "./validators.ts";

/** What a read answers after its preconditions: `304`, the whole representation, or the `Range` asked for. */
export type ReadDecision = "not-modified" | "whole" | "range";

/**
 * Evaluates the conditional headers of `request`, a read of `what` (e.g. `"primes"`) that would serve `version`.
 *
 * @throws {HttpError} `412 precondition-failed` (with the current `etag`) when `If-Match` names another version or
 * `If-Unmodified-Since` is before the version was published.
 * @example
 * ```ts
 * const version = { uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" };
 * readDecision(new Request("https://x/", { headers: { "If-None-Match": '"u1"' } }), "primes", version); // "not-modified"
 * readDecision(new Request("https://x/", { headers: { "If-Range": '"u0"' } }), "primes", version); // "whole"
 * ```
 */
export function readDecision(request: Request, what: string, version: VersionStamp): ReadDecision {
  const { headers } = request;
  const ifMatch = headers.get("If-Match");
  const ifUnmodifiedSince = ifMatch === null ? dateOf(headers.get("If-Unmodified-Since")) : undefined;
  const stale =
    (ifMatch !== null && !matchesVersion(parseEntityTags(ifMatch), version, true)) ||
    (ifUnmodifiedSince !== undefined && lastModified(version) > ifUnmodifiedSince);
  if (stale) {
    const etag = versionEtag(version);
    throw new HttpError(
      412,
      "precondition-failed",
      `Cannot read "${what}" as asked: its current version is ${etag}, which If-Match or If-Unmodified-Since rules out`,
      { extra: { etag } },
    );
  }
  const ifNoneMatch = headers.get("If-None-Match");
  if (ifNoneMatch !== null) {
    if (matchesVersion(parseEntityTags(ifNoneMatch), version, false)) return "not-modified";
  } else {
    const since = dateOf(headers.get("If-Modified-Since"));
    if (since !== undefined && lastModified(version) <= since) return "not-modified";
  }
  const ifRange = headers.get("If-Range");
  if (ifRange === null) return "range";
  // A date is no strong validator here (two versions may be published within one second): only the ETag counts.
  const tags = /^\s*(W\/)?"/.test(ifRange) ? parseEntityTags(ifRange) : [];
  return tags !== "*" && tags.length === 1 && matchesVersion(tags, version, true) ? "range" : "whole";
}

/** An HTTP date in ms since the epoch, or `undefined` when absent or not a date. */
function dateOf(value: string | null): number | undefined {
  const time = value === null ? Number.NaN : Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
