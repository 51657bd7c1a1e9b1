/**
 * Every read a route opens is released on every path: answered early (304, 412, 416), refused inside the read
 * (409, 416), or streamed to the end. The tests' deployment has no read grace period, so each read holds a lease
 * from its start, and the coordinator's count of reads holding one shows whether it was released.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, test } from "vitest";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import worker from "../../src/worker/index.ts";

const auth = { Authorization: "Bearer test-token" };
const BIG = new Uint8Array(encodeNumbers(Array.from({ length: 200_000 }, (_, index) => index)));

/** Sends a request (a POST of `body` when given); resolves with its response and its execution context. */
async function exchange(path: string, headers: Record<string, string> = {}, body?: BodyInit) {
  const ctx = createExecutionContext();
  const init = { method: body === undefined ? "GET" : "POST", headers: { ...auth, ...headers }, body };
  const response = await worker.fetch(new Request(`http://drainpipe.test${path}`, init), env, ctx);
  return { response, ctx };
}

/** How many reads of `name` hold a lease now. */
async function leasedReads(name: string): Promise<number> {
  return (await env.COORDINATOR.getByName(name).status()).reads;
}

let etag: string;

beforeAll(async () => {
  for (const [name, body] of [
    ["lease-sorted", "1\n2\n3\n"],
    ["lease-unsorted", "3\n1\n"],
    ["lease-big", BIG],
  ] as const) {
    const { response, ctx } = await exchange(`/files/${name}`, {}, body);
    expect(response.status, await response.text()).toBe(201);
    await waitOnExecutionContext(ctx);
  }
  etag = (await exchange("/files/lease-sorted")).response.headers.get("ETag")!;
});

describe("a read that ends early is released", () => {
  test.each([
    ["content, 304 Not Modified", "/files/lease-sorted/content", () => ({ "If-None-Match": etag }), 304],
    ["content, 412 on another version", "/files/lease-sorted/content", () => ({ "If-Match": '"other"' }), 412],
    ["content, 416 past the end", "/files/lease-sorted/content", () => ({ Range: "bytes=100-" }), 416],
    ["a part, 304 Not Modified", "/files/lease-sorted/parts/0", () => ({ "If-None-Match": etag }), 304],
    ["a part, 412 on another version", "/files/lease-sorted/parts/0", () => ({ "If-Match": '"other"' }), 412],
    ["a part, 416 past its end", "/files/lease-sorted/parts/0", () => ({ Range: "bytes=100-" }), 416],
    ["lines, 304 Not Modified", "/files/lease-sorted/lines?from=0", () => ({ "If-None-Match": etag }), 304],
    ["lines, 416 past the last line (thrown inside the read)", "/files/lease-sorted/lines?from=9", () => ({}), 416],
    [
      "search of an unsorted file, 409 (thrown inside the read)",
      "/files/lease-unsorted/search?value=1",
      () => ({}),
      409,
    ],
  ] as const)("%s", async (_, path, headers, status) => {
    const name = path.split("/")[2]!;
    const { response, ctx } = await exchange(path, headers());
    expect(response.status).toBe(status);
    await response.body?.cancel();
    await waitOnExecutionContext(ctx);
    expect(await leasedReads(name)).toBe(0);
  });
});

test("a read streaming its body holds its lease until the body is sent, then releases it", async () => {
  const { response, ctx } = await exchange("/files/lease-big/content");
  expect(response.status).toBe(200);
  // The body is not read yet: the pipe into it waits, and the read holds its lease.
  expect(await leasedReads("lease-big")).toBe(1);
  expect((await response.arrayBuffer()).byteLength).toBe(BIG.byteLength);
  await waitOnExecutionContext(ctx);
  expect(await leasedReads("lease-big")).toBe(0);
});
