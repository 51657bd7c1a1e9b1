import { createExecutionContext } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { HttpError } from "../../src/worker/http-error.ts";
import { createRouter, type Route, type RouteHandler, routeBuilder } from "../../src/worker/router.ts";

/** What the router hands every handler besides the request (the worker's is its bindings and budget). */
type Scope = { requestId: number };

/** A handler that answers what it was called with: the route's name, the params, the query and the scope. */
const echo =
  (route: string): RouteHandler<string, Scope> =>
  async ({ request, params, url, scope }) =>
    Response.json(
      { route, method: request.method, params, query: url.search, scope },
      { headers: { "X-Route": route } },
    );

const route = routeBuilder<Scope>();
const ROUTES: Route<Scope>[] = [
  route("OPTIONS", "/files", "public", echo("capabilities")),
  route("GET", "/files", "read", echo("list")),
  route("GET", "/files/:name", "read", echo("manifest")),
  route("DELETE", "/files/:name", "write", echo("remove")),
  route("GET", "/files/:name/parts/:index", "read", echo("part")),
  route("POST", "/sweep", "write", echo("sweep")),
];
const find = createRouter(ROUTES);

let requests = 0;
const send = (path: string, method = "GET") =>
  find(new Request(`https://example.com${path}`, { method })).answer(createExecutionContext(), {
    requestId: ++requests,
  });

/** The access the router finds `method` of `path` needs. */
const access = (path: string, method = "GET") => find(new Request(`https://example.com${path}`, { method })).access;

/** The HttpError the router throws for `path`. */
async function refusal(path: string, method = "GET"): Promise<HttpError> {
  const error = await send(path, method).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("createRouter", () => {
  test("runs the route whose method and pattern match, with its named parameters, the URL and the scope", async () => {
    const first = requests + 1;
    expect(await (await send("/files")).json()).toEqual({
      route: "list",
      method: "GET",
      params: {},
      query: "",
      scope: { requestId: first },
    });
    expect(await (await send("/files/primes/parts/3?x=1")).json()).toEqual({
      route: "part",
      method: "GET",
      params: { name: "primes", index: "3" },
      query: "?x=1",
      scope: { requestId: first + 1 },
    });
    expect(await (await send("/files/primes", "DELETE")).json()).toMatchObject({ route: "remove" });
    expect(await (await send("/sweep", "POST")).json()).toMatchObject({ route: "sweep" });
  });

  test("decodes percent-encoded parameters, and answers 400 on a malformed one", async () => {
    expect(await (await send("/files/first%20primes")).json()).toMatchObject({ params: { name: "first primes" } });
    const error = await refusal("/files/%E0%A4%A");
    expect(error).toMatchObject({ status: 400, code: "invalid-path" });
    expect(error.message).toBe('Cannot decode path segment "%E0%A4%A": malformed percent-encoding');
  });

  test("answers 404 for a path no pattern matches, an empty parameter or extra segments", async () => {
    for (const path of ["/nothing", "/files/", "/files/primes/parts/3/more", "/"]) {
      const error = await refusal(path);
      expect(error).toMatchObject({ status: 404, code: "not-found" });
      expect(error.message).toBe(`No route for GET ${path}`);
    }
  });

  test("answers 405 with Allow listing the methods of a path that matches with another method", async () => {
    const error = await refusal("/files/primes", "PUT");
    expect(error).toMatchObject({ status: 405, code: "method-not-allowed", headers: { Allow: "GET, HEAD, DELETE" } });
    expect(error.message).toBe("Cannot PUT /files/primes: allowed are GET, HEAD, DELETE");
    expect((await refusal("/sweep", "GET")).headers).toEqual({ Allow: "POST" });
  });

  test("answers HEAD wherever GET works, with GET's status and headers and no body", async () => {
    const get = await send("/files/primes");
    const head = await send("/files/primes", "HEAD");
    expect(head.status).toBe(get.status);
    expect(head.headers.get("X-Route")).toBe("manifest");
    expect(head.headers.get("Content-Type")).toBe(get.headers.get("Content-Type"));
    expect(head.body).toBeNull();
    expect((await refusal("/sweep", "HEAD")).status).toBe(405);
  });

  test("types a handler's parameters from its route's pattern", async () => {
    const typed = route("GET", "/files/:name/parts/:index", "read", async ({ params }) => {
      const { name, index }: { name: string; index: string } = params;
      // @ts-expect-error: the pattern has no :offset
      params.offset;
      return new Response(`${name}:${index}`);
    });
    const response = await createRouter([typed])(new Request("https://example.com/files/p/parts/2")).answer(
      createExecutionContext(),
      { requestId: 0 },
    );
    expect(await response.text()).toBe("p:2");
  });

  test("finds the access a route declares, and for a refusal what the request would have needed", () => {
    expect(access("/files/primes")).toBe("read");
    expect(access("/files/primes", "HEAD")).toBe("read");
    expect(access("/files/primes", "DELETE")).toBe("write");
    expect(access("/files", "OPTIONS")).toBe("public");
    // A refusal: the stricter of the method's and the path's routes'; OPTIONS is always public.
    expect(access("/files/primes", "PUT")).toBe("write");
    expect(access("/files", "POST")).toBe("write");
    expect(access("/sweep", "GET")).toBe("write");
    expect(access("/nothing")).toBe("read");
    expect(access("/nothing", "POST")).toBe("write");
    expect(access("/nothing", "OPTIONS")).toBe("public");
  });
});
