import type { Access } from "./authorize.ts";
import { HttpError } from "./http-error.ts";

/** The names of the `:name` segments of a path pattern: `"/files/:name/parts/:index"` gives `"name" | "index"`. */
export type ParamNames<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? Name
    : never;

/** The parameters of a path pattern, each the decoded segment it matched: `/files/:name` gives `{ name }`. */
export type RouteParams<P extends string> = { readonly [Name in ParamNames<P>]: string };

/**
 * What a handler is called with: the request, the parameters of its route's pattern, the URL, the request's
 * execution context (for work that outlives the response, such as releasing a read once its body is sent) and
 * `scope`, what the caller of the router made for this one request (its metered bindings, say).
 */
export interface RouteCall<P extends string, S> {
  /** The request. */
  request: Request;
  /** The pattern's parameters. */
  params: RouteParams<P>;
  /** The request's URL, parsed. */
  url: URL;
  /** The request's execution context. */
  ctx: ExecutionContext;
  /** What the router's caller made for this request. */
  scope: S;
}

/** Answers a request of a route whose pattern is `P`. */
export type RouteHandler<P extends string, S> = (call: RouteCall<P, S>) => Promise<Response>;

/** One route, as {@linkcode routeBuilder} makes it: a method, a path pattern, its access and its handler. */
export interface Route<S> {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path pattern, e.g. `/files/:name/parts/:index`. */
  readonly pattern: string;
  /** Who may make the request. */
  readonly access: Access;
  /** Runs the handler with the parameters the router matched against {@linkcode Route.pattern}. */
  readonly handle: (call: RouteCall<string, S>) => Promise<Response>;
}

/**
 * The function that declares routes whose handlers receive a scope of type `S`: each route's parameters are typed
 * from its pattern, so a handler of `/files/:name` reads `params.name` as a `string`.
 *
 * @example
 * ```ts
 * const route = routeBuilder<undefined>();
 * const manifest = route("GET", "/files/:name", "read", async ({ params }) => new Response(params.name));
 * manifest.access; // "read"
 * ```
 */
export function routeBuilder<S>(): <const P extends string>(
  method: string,
  pattern: P,
  access: Access,
  handler: RouteHandler<P, S>,
) => Route<S> {
  // The router calls `handle` only with the parameters it matched against this very pattern: every name of P.
  return (method, pattern, access, handler) => ({
    method,
    pattern,
    access,
    handle: (call) => handler(call as RouteCall<typeof pattern, S>),
  });
}

/** What the router found for a request: the access it needs, and how to answer it once that is granted. */
export interface RoutedRequest<S> {
  /**
   * The matched route's access. A refusal (`404`, `405`) needs what the request could have needed, so that it
   * tells nothing to whom may not ask: the stricter of what its method needs (`read` for `GET` and `HEAD`, else
   * `write`) and the strictest access of the routes of its path; an `OPTIONS` request is always `public`.
   */
  access: Access;
  /** Answers the request: the route's response, or throws the `404` or `405`. */
  answer(ctx: ExecutionContext, scope: S): Promise<Response>;
}

/**
 * Builds, once, the function that finds the route for a request. A path that matches no pattern is a 404; a path
 * that matches with another method is a 405 listing the allowed methods in `Allow`. `HEAD` works wherever `GET`
 * does (RFC 9110): the `GET` handler runs and its body is dropped, so the headers are the same, `Content-Length`
 * included (the handler declares it, or the body is small and counted: a JSON answer, some lines).
 *
 * @example
 * ```ts
 * declare const ctx: ExecutionContext;
 * const route = routeBuilder<undefined>();
 * const find = createRouter([route("GET", "/files/:name", "read", async ({ params }) => new Response(params.name))]);
 * const routed = find(new Request("https://example.com/files/primes"));
 * routed.access; // "read"
 * const response = await routed.answer(ctx, undefined);
 * ```
 */
export function createRouter<S>(routes: Route<S>[]): (request: Request) => RoutedRequest<S> {
  const compiled = routes.map((route) => ({ route, segments: route.pattern.split("/") }));
  return (request) => {
    const url = new URL(request.url);
    const segments = url.pathname.split("/");
    const allowed: string[] = [];
    let strictest: Access = request.method === "GET" || request.method === "HEAD" ? "read" : "write";
    for (const { route, segments: pattern } of compiled) {
      let params: Record<string, string> | null;
      try {
        params = match(pattern, segments);
      } catch (error) {
        // A malformed path is refused (400) with the access its method needs, as a path no route matches is.
        return { access: strictest, answer: () => Promise.reject(error) };
      }
      if (!params) continue;
      const head = route.method === "GET" && request.method === "HEAD";
      if (route.method === request.method || head) {
        const found = params;
        return {
          access: route.access,
          answer: async (ctx, scope) => {
            const response = await route.handle({ request, params: found, url, ctx, scope });
            return head ? withoutBody(response) : response;
          },
        };
      }
      if (ACCESS_ORDER.indexOf(route.access) > ACCESS_ORDER.indexOf(strictest)) strictest = route.access;
      allowed.push(route.method);
      if (route.method === "GET") allowed.push("HEAD");
    }
    return {
      access: request.method === "OPTIONS" ? "public" : strictest,
      answer: async () => refuse(request, url, allowed),
    };
  };
}

/** The accesses, least demanding first. */
const ACCESS_ORDER: readonly Access[] = ["public", "read", "write"];

function refuse(request: Request, url: URL, allowed: string[]): never {
  if (allowed.length > 0) {
    throw new HttpError(
      405,
      "method-not-allowed",
      `Cannot ${request.method} ${url.pathname}: allowed are ${allowed.join(", ")}`,
      { headers: { Allow: allowed.join(", ") } },
    );
  }
  throw new HttpError(404, "not-found", `No route for ${request.method} ${url.pathname}`);
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
