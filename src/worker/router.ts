import { HttpError } from "./http-error.ts";

/**
 * A request handler given the route's named parameters, the request's execution context (for work that
 * outlives the response, such as releasing a read once its body is sent) and `scope`, what the caller of the
 * router made for this one request (its metered bindings, say).
 */
export type RouteHandler<S = undefined> = (
  request: Request,
  params: Record<string, string>,
  url: URL,
  ctx: ExecutionContext,
  scope: S,
) => Promise<Response>;

/** One route: a method, a path pattern with `:name` segments, and its handler. */
export interface Route<S = undefined> {
  /** HTTP method, upper case. */
  method: string;
  /** Path pattern, e.g. `/files/:name/parts/:index`. */
  pattern: string;
  /** Handles a matching request. */
  handler: RouteHandler<S>;
}

/**
 * Builds, once, the function that finds the route for a request and calls its handler with the request's
 * `scope`. A path that matches no pattern is a 404; a path that matches with another
 * method is a 405 listing the allowed methods in `Allow`. `HEAD` works wherever `GET` does (RFC 9110): the
 * `GET` handler runs and its body is dropped, so the headers are the same, `Content-Length` included (the handler
 * declares it, or the body is small and counted: a JSON answer, some lines).
 *
 * @example
 * ```ts
 * declare const getManifest: RouteHandler;
 * declare const ctx: ExecutionContext;
 * const handle = createRouter([{ method: "GET", pattern: "/files/:name", handler: getManifest }]);
 * const response = await handle(new Request("https://example.com/files/primes"), ctx, undefined);
 * ```
 */
export function createRouter<S = undefined>(
  routes: Route<S>[],
): (request: Request, ctx: ExecutionContext, scope: S) => Promise<Response> {
  const compiled = routes.map((route) => ({ ...route, segments: route.pattern.split("/") }));
  return async (request, ctx, scope) => {
    const url = new URL(request.url);
    const segments = url.pathname.split("/");
    const allowed: string[] = [];
    for (const route of compiled) {
      const params = match(route.segments, segments);
      if (!params) continue;
      if (route.method === request.method) return route.handler(request, params, url, ctx, scope);
      if (route.method === "GET" && request.method === "HEAD") {
        return withoutBody(await route.handler(request, params, url, ctx, scope));
      }
      allowed.push(route.method);
      if (route.method === "GET") allowed.push("HEAD");
    }
    if (allowed.length > 0) {
      throw new HttpError(
        405,
        "method-not-allowed",
        `Cannot ${request.method} ${url.pathname}: allowed are ${allowed.join(", ")}`,
        {
          headers: { Allow: allowed.join(", ") },
        },
      );
    }
    throw new HttpError(404, "not-found", `No route for ${request.method} ${url.pathname}`);
  };
}

function match(pattern: string[], path: string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = path[i]!;
    if (expected.startsWith(":")) {
      if (actual === "") return null;
      params[expected.slice(1)] = decodeSegment(actual);
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    throw new HttpError(400, "invalid-path", `Cannot decode path segment "${segment}": malformed percent-encoding`, {
      cause: error,
    });
  }
}

/**
 * The answer to a `HEAD`: the response's status and headers without its body. A body of declared length is cancelled
 * unread; any other is read to count its bytes for `Content-Length`, as the `GET` answer sends them: the handlers'
 * undeclared bodies are small (JSON, lines, errors).
 *
 * @example
 * ```ts
 * const head = await withoutBody(Response.json({ error: "not-found" }, { status: 404 }));
 * head.headers.get("Content-Length"); // "21"
 * ```
 */
export async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.body !== null && !headers.has("Content-Length")) {
    headers.set("Content-Length", String((await response.arrayBuffer()).byteLength));
  } else {
    response.body?.cancel().catch(() => undefined);
  }
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
