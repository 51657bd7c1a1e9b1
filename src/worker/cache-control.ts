/**
 * The `Cache-Control` of the API's answers. Every answer says `no-transform` (RFC 9111 §5.2.2.6), so that proxies
 * and CDNs that honour it neither compress nor otherwise change the bytes, their length or their ranges. Reads
 * (`GET`, `HEAD` of the routes open to readers) may be stored but are revalidated before each use (`no-cache`), with
 * the version's strong `ETag` (a `304` costs one coordinator call and no R2 read): `public` when reads need no token
 * (`PUBLIC_READS=true`), `private` when they do (a shared cache then stores none). Anything else (writes, the listing
 * of uploads in flight, tus) is `no-store`, unless its route set a `Cache-Control` of its own.
 *
 * Every answer also says `Content-Encoding: identity` (unless its route named an encoding): the local
 * runtime (`wrangler dev`) ignores `no-transform` and gzips `text/plain` and JSON for a client that accepts gzip,
 * unless the response names an encoding. It would drop `Content-Length` from a `GET` while its `HEAD` still declared
 * the identity length, gzip a `206` that `Content-Range` counts in identity bytes, and label a `304` gzip.
 *
 * @module
 */
import type { Settings } from "./settings.ts";

/**
 * The `Cache-Control` for the answer to a request of `method` that needs `access` (`"read"`: what readers may see),
 * under `settings`.
 *
 * @example
 * ```ts
 * import type { Settings } from "./settings.ts";
 * declare const settings: Settings; // publicReads: false
 * cacheControl("GET", "read", settings); // "private, no-cache, no-transform"
 * cacheControl("POST", "write", settings); // "no-store, no-transform"
 * ```
 */
export function cacheControl(method: string, access: string, settings: Pick<Settings, "publicReads">): string {
  if ((method === "GET" || method === "HEAD") && access === "read") {
    return `${settings.publicReads ? "public" : "private"}, no-cache, no-transform`;
  }
  return "no-store, no-transform";
}

/**
 * `response` with `Cache-Control: cache` unless it has one, `Content-Encoding: identity` unless it names an
 * encoding, and the headers of `always` (those the request's kind of route always answers with, say
 * `Tus-Resumable`).
 *
 * @example
 * ```ts
 * const answer = withAnswerHeaders(Response.json({ a: 1 }), "private, no-cache, no-transform");
 * answer.headers.get("Content-Encoding"); // "identity"
 * ```
 */
export function withAnswerHeaders(response: Response, cache: string, always: Record<string, string> = {}): Response {
  const added: [string, string][] = Object.entries(always);
  if (!response.headers.has("Cache-Control")) added.push(["Cache-Control", cache]);
  if (!response.headers.has("Content-Encoding")) added.push(["Content-Encoding", "identity"]);
  if (added.length === 0) return response;
  try {
    for (const [name, value] of added) response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a response passed through from elsewhere): copy it.
    const answer = new Response(response.body, response);
    for (const [name, value] of added) answer.headers.set(name, value);
    return answer;
  }
}
