/**
 * Cross-origin access for the pages of other origins (a tus client such as Uppy on a site of its own): allowed only
 * for the origins of `CORS_ORIGINS` (none by default). A preflight from such an origin is answered here, before
 * authentication (a browser sends it without credentials); every answer to such an origin carries
 * `Access-Control-Allow-Origin` and exposes the headers a tus client reads.
 *
 * @module
 */
import { EXPOSED_DRAINPIPE_HEADERS } from "../http-contract/headers.ts";
import type { Settings } from "./settings.ts";
import { TUS_EXPOSED_HEADERS, TUS_REQUEST_HEADERS, TUS_RESUMABLE, TUS_VERSION } from "./tus-protocol.ts";

/** The methods a page of an allowed origin may use. */
const ALLOWED_METHODS = "GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS";

/** Headers of drainpipe's own answers a page may read besides the tus ones. */
const EXPOSED_HEADERS = [
  ...TUS_EXPOSED_HEADERS,
  "ETag",
  "Last-Modified",
  "Content-Range",
  "Content-Length",
  "Content-Disposition",
  ...EXPOSED_DRAINPIPE_HEADERS,
].join(", ");

/** How long a browser may cache a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

/**
 * The CORS headers for `request`'s origin, or `null` when it has none or the origin is not allowed.
 *
 * @example
 * ```ts
 * import type { Settings } from "./settings.ts";
 * declare const settings: Settings; // corsOrigins: ["https://app.example"]
 * corsHeaders(new Request("https://api.example/tus", { headers: { Origin: "https://app.example" } }), settings);
 * // { "Access-Control-Allow-Origin": "https://app.example", Vary: "Origin", … }
 * ```
 */
export function corsHeaders(request: Request, settings: Settings): Record<string, string> | null {
  const origin = request.headers.get("Origin");
  if (origin === null || !allowed(origin, settings.corsOrigins)) return null;
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
    Vary: "Origin",
  };
}

/**
 * The answer to a CORS preflight from an allowed origin (`OPTIONS` with `Access-Control-Request-Method`), or `null`
 * for any other request, which goes on to its route.
 */
export function preflight(request: Request, settings: Settings): Response | null {
  if (request.method !== "OPTIONS" || !request.headers.has("Access-Control-Request-Method")) return null;
  const headers = corsHeaders(request, settings);
  if (headers === null) return null;
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": [...TUS_REQUEST_HEADERS, "Content-Digest", "Range", "If-Range"].join(", "),
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
      ...TUS_RESUMABLE,
      "Tus-Version": TUS_VERSION,
    },
  });
}

/** `response` with the CORS headers of `request`'s origin, when it is allowed. */
export function withCors(response: Response, request: Request, settings: Settings): Response {
  const headers = corsHeaders(request, settings);
  if (headers === null) return response;
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}

function allowed(origin: string, origins: readonly string[]): boolean {
  return origins.includes("*") || origins.includes(origin);
}
