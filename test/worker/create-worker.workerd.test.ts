import { env } from "cloudflare:workers";
import { expect, test } from "vitest";
import { createWorker } from "../../src/worker/create-worker.ts";
import { utf8 } from "../support/bytes.ts";
import { callHandler, testRequest } from "../support/call-worker.ts";

/** The test environment with its bindings under other names, as a user's worker might have them. */
const renamed = { ...env, BUCKET: undefined, COORDINATOR: undefined, NUMBERS: env.BUCKET, FILES: env.COORDINATOR };
const drainpipe = createWorker({ prefix: "/api/numbers/", bucket: "NUMBERS", coordinator: "FILES" });

test("matches only paths under the prefix (a trailing slash in the option is ignored)", () => {
  expect(drainpipe.prefix).toBe("/api/numbers");
  const matches = (path: string) => drainpipe.matches(new Request(`http://app.test${path}`));
  expect(["/api/numbers", "/api/numbers/", "/api/numbers/files/x"].map(matches)).toEqual([true, true, true]);
  expect(["/", "/api", "/api/numbersx", "/files"].map(matches)).toEqual([false, false, false, false]);
  expect(createWorker({ prefix: "api/" }).prefix).toBe("/api");
  expect(createWorker().prefix).toBe("");
});

test("serves the API under the prefix with the renamed bindings, query strings kept", async () => {
  const stored = await callHandler(
    drainpipe,
    testRequest("POST", "/api/numbers/files/mounted?maxPartBytes=1024", { body: utf8("7\n-1\n") }),
    renamed,
  );
  expect(stored.status).toBe(201);
  expect(((await stored.json()) as { maxPartBytes: number }).maxPartBytes).toBe(1024);
  const content = await callHandler(drainpipe, testRequest("GET", "/api/numbers/files/mounted/content"), renamed);
  expect(await content.text()).toBe("7\n-1\n");
  expect((await callHandler(drainpipe, testRequest("DELETE", "/api/numbers/files/mounted"), renamed)).status).toBe(204);
});

test("a path outside the prefix is a 404 in the API's error format", async () => {
  const response = await callHandler(drainpipe, testRequest("GET", "/files"), renamed);
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: string }).error).toBe("not-found");
});
