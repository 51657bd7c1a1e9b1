import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { meteredBucket } from "../../src/store/metered-bucket.ts";
import { RequestBudget } from "../../src/store/request-budget.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import worker from "../../src/worker/index.ts";
import { meteredNamespace } from "../../src/worker/metered-namespace.ts";
import { call, callWorkerToEnd, TEST_AUTH, TEST_ORIGIN } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// Downloads as proxies, CDNs and browsers meet them: the headers of every read, HEAD against GET on every route,
// multi-range requests, and a deployment that plans for more subrequests than its platform grants.

async function stored(name: string, bytes: Uint8Array, maxPartBytes = 1024): Promise<Manifest> {
  const response = await call("POST", `/files/${name}?maxPartBytes=${maxPartBytes}`, { body: bytes });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

/** 0, 3, 6, …: non-decreasing, so that search answers too. */
const sorted = encodeNumbers(Float64Array.from({ length: 3000 }, (_, i) => i * 3));

beforeEach(async () => {
  await emptyR2Store();
});

describe("the headers of a read", () => {
  test("content and parts: identity bytes, an attachment named after the file, revalidated privately", async () => {
    const manifest = await stored("primes", sorted);
    const etag = `"${manifest.uploadId}"`;
    const cases = [
      ["/files/primes/content", {}, 200, 'attachment; filename="primes"'],
      ["/files/primes/content", { Range: "bytes=10-19" }, 206, 'attachment; filename="primes"'],
      ["/files/primes/parts/2", {}, 200, 'attachment; filename="primes.part-2"'],
      ["/files/primes/parts/2", { Range: "bytes=-5" }, 206, 'attachment; filename="primes.part-2"'],
    ] as const;
    for (const [path, headers, status, disposition] of cases) {
      for (const method of ["GET", "HEAD"]) {
        const response = await call(method, path, { headers });
        expect(response.status).toBe(status);
        expect({
          encoding: response.headers.get("Content-Encoding"),
          disposition: response.headers.get("Content-Disposition"),
          cache: response.headers.get("Cache-Control"),
          etag: response.headers.get("ETag"),
        }).toEqual({ encoding: "identity", disposition, cache: "private, no-cache, no-transform", etag });
        await response.body?.cancel();
      }
    }
    // A 304 is labelled too, so that no runtime labels it gzip.
    const unchanged = await call("GET", "/files/primes/content", { headers: { "If-None-Match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("Content-Encoding")).toBe("identity");
    expect(unchanged.headers.get("Cache-Control")).toBe("private, no-cache, no-transform");
  });

  test("with PUBLIC_READS=true, reads are public but still revalidated; writes are never stored", async () => {
    await stored("open", sorted);
    const publicEnv = { ...env, PUBLIC_READS: "true" } as DrainpipeEnv;
    for (const path of ["/files/open/content", "/files/open", "/files", "/limits", "/files/open/lines?from=0"]) {
      const response = await callWorkerToEnd(new Request(`${TEST_ORIGIN}${path}`), publicEnv);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("public, no-cache, no-transform");
    }
    const listing = await call("GET", "/files/open/uploads");
    expect(listing.headers.get("Cache-Control")).toBe("no-store, no-transform");
    await listing.body?.cancel();
    const removed = await call("DELETE", "/files/open");
    expect(removed.status).toBe(204);
    expect(removed.headers.get("Cache-Control")).toBe("no-store, no-transform");
    const missing = await call("GET", "/files/open");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Cache-Control")).toBe("private, no-cache, no-transform");
    await missing.body?.cancel();
  });
});

describe("HEAD", () => {
  test("declares the Content-Length of the GET on every read route, JSON included", async () => {
    await stored("nums", sorted);
    const paths = [
      "/files",
      "/files?limit=1",
      "/files/nums",
      "/limits",
      "/files/nums/uploads",
      "/files/nums/content",
      "/files/nums/parts/0",
      "/files/nums/lines?from=10&count=7",
      "/files/nums/search?value=301",
      "/files/nums/parts/999",
    ];
    for (const path of paths) {
      const got = await call("GET", path);
      const bytes = (await got.arrayBuffer()).byteLength;
      const head = await call("HEAD", path);
      expect({ path, status: head.status, length: head.headers.get("Content-Length") }).toEqual({
        path,
        status: got.status,
        length: String(bytes),
      });
      expect(head.body).toBeNull();
    }
  });
});

describe("several ranges in one request", () => {
  test("are answered with the whole body, as documented: no multipart/byteranges", async () => {
    const manifest = await stored("multi", sorted);
    for (const range of ["bytes=0-9,20-29", "bytes=0-9, 5000-5009", "bytes=-5,0-0"]) {
      const response = await call("GET", "/files/multi/content", { headers: { Range: range } });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Range")).toBeNull();
      expect(response.headers.get("Content-Length")).toBe(String(manifest.totals.bytes));
      expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(sorted);
    }
  });
});

/** What a client of a read gets: the status, and the body to its end or to the error that cut it. */
interface Received {
  status: number;
  declared: number | null;
  bytes: number;
  completed: boolean;
  body: unknown;
}

/**
 * Sends `path` to the worker left at the default plan (Paid), with its bindings behind a meter that refuses calls
 * past `limit`, as the platform refuses a Free worker's 51st: what a Free deployment that forgot `PLAN=free` meets.
 */
async function behindMeter(path: string, limit: number): Promise<Received> {
  const budget = new RequestBudget(limit);
  const metered = {
    ...env,
    READ_GRACE_SECONDS: undefined,
    PLAN: undefined,
    BUCKET: meteredBucket(env.BUCKET, budget),
    COORDINATOR: meteredNamespace(env.COORDINATOR, budget),
  } as DrainpipeEnv;
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: TEST_AUTH }), metered, ctx);
  const declared = response.headers.get("Content-Length");
  let bytes = 0;
  let completed = false;
  let body: unknown = null;
  if (response.ok) {
    try {
      for await (const chunk of response.body!) bytes += chunk.byteLength;
      completed = true;
    } catch {
      completed = false;
    }
  } else {
    body = await response.json();
  }
  await waitOnExecutionContext(ctx);
  return { status: response.status, declared: declared === null ? null : Number(declared), bytes, completed, body };
}

describe("a Free deployment left at the default plan (an entry that throws past 50 calls)", () => {
  test("never answers a 200 whose body completes short: the body errors", async () => {
    const bytes = encodeNumbers(sampleNumbers(15_000, 2));
    const manifest = await stored("many", bytes);
    expect(manifest.parts.length).toBeGreaterThanOrEqual(107);
    const got = await behindMeter("/files/many/content", 50);
    expect(got.status).toBe(200);
    expect(got.declared).toBe(bytes.length);
    // The 51st call (the 50th part's get) is refused after the first 49 parts went out.
    expect(got.completed).toBe(false);
    expect(got.bytes).toBeLessThanOrEqual(manifest.parts.slice(0, 49).reduce((sum, part) => sum + part.bytes, 0));
  });

  test("a read refused before its first byte is a 503 subrequest-limit naming PLAN, not a 200", async () => {
    await stored("early", encodeNumbers(sampleNumbers(2_000, 3)));
    // beginRead is the only call that fits: the first part's get is refused.
    for (const path of ["/files/early/content", "/files/early/parts/1"]) {
      const got = await behindMeter(path, 1);
      expect(got.status).toBe(503);
      const body = got.body as { error: string; detail: string; subrequests: number };
      expect(body.error).toBe("subrequest-limit");
      expect(body.detail).toContain('PLAN = "free"');
      expect(body.subrequests).toBe(Number(body.detail.match(/counts on (\d+)/)![1]));
    }
  });

  test("a read that fits the platform's limit is whole", async () => {
    const bytes = encodeNumbers(sampleNumbers(2_000, 4));
    const manifest = await stored("fits", bytes);
    expect(manifest.parts.length).toBeLessThan(49);
    const got = await behindMeter("/files/fits/content", 50);
    expect(got).toMatchObject({ status: 200, declared: bytes.length, bytes: bytes.length, completed: true });
  });
});
