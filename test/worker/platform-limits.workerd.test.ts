import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { PLAN_SUBREQUESTS, RequestBudget } from "../../src/store/request-budget.ts";
import worker from "../../src/worker/index.ts";
import { callMetered } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// Local workerd enforces no per-request limit, so these tests do: every request runs with its bindings behind a
// meter of the test's own that refuses calls past the plan's limit, as the platform does. A worker that planned
// wrongly would meet a refused call and fail; a worker that answers 2xx here made every call within budget.

const origin = "http://drainpipe.test";
const auth = { Authorization: "Bearer test-token" };
const FREE = PLAN_SUBREQUESTS.free;

/** One request to the worker on `plan`, with the bindings metered by the test; the calls it made, counted. */
async function call(
  method: string,
  path: string,
  options: {
    body?: BodyInit;
    headers?: Record<string, string>;
    plan?: "free" | "paid";
    vars?: object;
    /** The test's own limit, when not the plan's (a `SUBREQUEST_LIMIT`). */
    meter?: number;
    /** Receives the bytes each R2 `get` of the request's own delivers (a ranged get: the range's length). */
    reads?: number[];
  } = {},
): Promise<{ response: Response; calls: () => number }> {
  const plan = options.plan ?? "free";
  const budget = new RequestBudget(options.meter ?? PLAN_SUBREQUESTS[plan]);
  const response = await callMetered({
    method,
    path,
    headers: options.headers,
    body: options.body,
    vars: { PLAN: plan, ...options.vars },
    bucket: budget,
    coordinator: budget,
    reads: options.reads,
  });
  return { response, calls: () => budget.used };
}

/** Stores `numbers` as `name` on the Paid plan, in parts of `maxPartBytes`. */
async function stored(name: string, numbers: Float64Array, maxPartBytes: number): Promise<Manifest> {
  const { response } = await call("POST", `/files/${name}?maxPartBytes=${maxPartBytes}`, {
    body: encodeNumbers(numbers),
    plan: "paid",
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), "")) keys.push(object.key);
  return keys.sort();
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("content reads on the Free plan (50 subrequests)", () => {
  test("a 40-part file is read whole within budget", async () => {
    const numbers = sampleNumbers(4_000, 1);
    const manifest = await stored("forty", numbers, 1024);
    expect(manifest.parts.length).toBeLessThanOrEqual(44);
    const { response, calls } = await call("GET", "/files/forty/content");
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(encodeNumbers(numbers));
    // beginRead (no lease: the read is shorter than half the read grace period), one get per part.
    expect(calls()).toBe(manifest.parts.length + 1);
  });

  test("a 100-part file is read whole in slices, one coordinator call per 48 parts", async () => {
    const numbers = sampleNumbers(14_000, 2);
    const manifest = await stored("hundred", numbers, 1024);
    expect(manifest.parts.length).toBeGreaterThanOrEqual(100);
    const { response, calls } = await call("GET", "/files/hundred/content");
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(encodeNumbers(numbers));
    // beginRead, one readParts per slice.
    expect(calls()).toBe(1 + Math.ceil(manifest.parts.length / (FREE - 2)));
  });

  test("a 2,000-part file is read whole within 50 subrequests", { timeout: 300_000 }, async () => {
    const numbers = sampleNumbers(270_000, 8);
    const { response: upload } = await call("POST", "/files/big?maxPartBytes=1024", {
      body: encodeNumbers(numbers),
      plan: "paid",
    });
    expect(upload.status).toBe(201);
    const manifest = (await upload.json()) as Manifest;
    expect(manifest.parts.length).toBeGreaterThanOrEqual(2000);
    const { response, calls } = await call("GET", "/files/big/content");
    expect(response.status).toBe(200);
    const bytes = encodeNumbers(numbers);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(calls()).toBeLessThanOrEqual(FREE);

    // 100 bytes inside part 1000, then 100 bytes across the boundary of parts 1000 and 1001: one R2 get of the
    // 100 bytes, or two of 50, besides beginRead. The whole file, where one request may read every
    // part itself (Paid's 10,000): one get per part, every byte.
    const start = manifest.parts.slice(0, 1000).reduce((sum, part) => sum + part.bytes, 0);
    const boundary = start + manifest.parts[1000]!.bytes;
    for (const [from, gets] of [
      [start + 10, [100]],
      [boundary - 50, [50, 50]],
    ] as const) {
      const reads: number[] = [];
      const range = `bytes=${from}-${from + 99}`;
      const ranged = await call("GET", "/files/big/content", { headers: { Range: range }, reads });
      expect(ranged.response.status).toBe(206);
      expect(new Uint8Array(await ranged.response.arrayBuffer())).toEqual(bytes.subarray(from, from + 100));
      expect({ calls: ranged.calls(), reads }).toEqual({ calls: 1 + gets.length, reads: gets });
    }
    const reads: number[] = [];
    const direct = { plan: "paid", reads } as const;
    const whole = await call("GET", "/files/big/content", direct);
    expect(whole.response.status).toBe(200);
    expect({ calls: whole.calls(), gets: reads.length }).toEqual({
      calls: manifest.parts.length + 1,
      gets: manifest.parts.length,
    });
    expect(reads.reduce((sum, read) => sum + read, 0)).toBe(bytes.length);
  });

  test("a read that not even slices fit is refused up front with 422, never a short 200, and released", async () => {
    await stored("tight", sampleNumbers(14_000, 2), 1024);
    const { response, calls } = await call("GET", "/files/tight/content", { vars: { SUBREQUEST_LIMIT: "10" } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; detail: string };
    expect(body.error).toBe("over-budget");
    expect(body.detail).toContain("/files/tight/parts/0");
    expect(calls()).toBe(1); // beginRead: the read took no lease, so it has none to end
    const { response: status } = await call("GET", "/files/tight/uploads");
    expect(((await status.json()) as { reads: number }).reads).toBe(0);
  });

  test("every part of a 100-part file is read within budget, 2 subrequests each", async () => {
    const manifest = await stored("parts", sampleNumbers(14_000, 3), 1024);
    for (const part of [0, 57, manifest.parts.length - 1]) {
      const { response, calls } = await call("GET", `/files/parts/parts/${part}`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(manifest.parts[part]!.bytes);
      expect(calls()).toBe(2); // beginPartRead and the part's get
    }
  });

  test("a range of a part: 2 subrequests, one R2 get of only its bytes; 304 and 416 read nothing", async () => {
    const manifest = await stored("part-range", sampleNumbers(14_000, 3), 1024);
    const reads: number[] = [];
    const ranged = await call("GET", "/files/part-range/parts/57", { headers: { Range: "bytes=100-199" }, reads });
    expect(ranged.response.status).toBe(206);
    expect({ calls: ranged.calls(), reads }).toEqual({ calls: 2, reads: [100] });
    const etag = `"${manifest.uploadId}"`;
    const refusals: Record<string, string>[] = [{ "If-None-Match": etag }, { Range: "bytes=999999-" }];
    for (const headers of refusals) {
      const refused: number[] = [];
      for (const path of ["/files/part-range/parts/57", "/files/part-range/content"]) {
        const { response, calls } = await call("GET", path, { headers, reads: refused });
        expect([304, 416]).toContain(response.status);
        expect(calls()).toBe(1); // beginRead (or beginPartRead), which took no lease
      }
      expect(refused).toEqual([]);
    }
  });
});

describe("uploads on the Free plan", () => {
  test("a body whose declared length needs too many parts is refused before anything is written", async () => {
    const body = encodeNumbers(sampleNumbers(20_000, 4));
    const headers = { "Content-Length": String(body.length) };
    const { response, calls } = await call("POST", "/files/small-parts?maxPartBytes=1024", { body, headers });
    expect(response.status).toBe(422);
    const error = (await response.json()) as { error: string; detail: string };
    expect(error.error).toBe("over-budget");
    expect(error.detail).toMatch(/maxPartBytes=\d+ or more/);
    expect(calls()).toBe(0);
    expect(await bucketKeys()).toEqual([]);
  });

  test("a body that cannot but make more than 4,000 parts is refused with 413 before anything is written", async () => {
    const headers = { "Content-Length": String(4_100_000) };
    const body = new Uint8Array(4_100_000).fill(10);
    const { response, calls } = await call("POST", "/files/too-many-parts?maxPartBytes=1024", {
      body,
      headers,
      plan: "paid",
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe("too-many-parts");
    expect(calls()).toBe(0);
  });

  test("the part size the refusal names is accepted", async () => {
    const body = encodeNumbers(sampleNumbers(20_000, 4));
    const headers = { "Content-Length": String(body.length) };
    const refused = await call("POST", "/files/advised?maxPartBytes=1024", { body, headers });
    const size = /maxPartBytes=(\d+)/.exec(((await refused.response.json()) as { detail: string }).detail)![1];
    const { response, calls } = await call("POST", `/files/advised?maxPartBytes=${size}`, { body, headers });
    expect(response.status).toBe(201);
    expect(calls()).toBeLessThanOrEqual(FREE);
  });

  test("a chunked body that outgrows the budget fails with 422 and leaves nothing behind", async () => {
    const bytes = encodeNumbers(sampleNumbers(20_000, 5));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
        controller.close();
      },
    });
    const { response, calls } = await call("POST", "/files/chunked?maxPartBytes=1024", { body });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toBe("over-budget");
    expect(calls()).toBe(FREE);
    expect(await bucketKeys()).toEqual([]);
  });

  test("POST /files/:name/primes with a count past the budget is refused up front", async () => {
    const { response, calls } = await call("POST", "/files/p/primes?count=100000&maxPartBytes=1024");
    expect(response.status).toBe(422);
    expect(calls()).toBe(0);
  });

  test("POST /files/:name/primes stops when the client goes away, leaving nothing", async () => {
    // The client leaves as soon as the first part is stored: the worker writes at most the parts in flight.
    const controller = new AbortController();
    let puts = 0;
    const bucket = new Proxy(env.BUCKET, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== "put") return typeof value === "function" ? value.bind(target) : value;
        return async (...args: Parameters<R2Bucket["put"]>) => {
          const stored = await target.put(...args);
          if (++puts === 1) controller.abort(new Error("client went away"));
          return stored;
        };
      },
    });
    const request = new Request(`${origin}/files/gone/primes?count=5000000&maxPartBytes=1048576`, {
      method: "POST",
      headers: auth,
      signal: controller.signal,
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, { ...env, PLAN: "paid", BUCKET: bucket }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(puts).toBeLessThan(5); // of the 45 parts the file would have had
    expect(await bucketKeys()).toEqual([]);
  });
});

describe("listing on the Free plan", () => {
  test("GET /files pages through 60 files, each page within budget", async () => {
    for (let index = 0; index < 60; index++) {
      await stored(`f${String(index).padStart(2, "0")}`, Float64Array.of(index), 1024);
    }
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
      const { response, calls } = await call("GET", `/files${query}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { files: { name: string }[]; cursor: string | null };
      names.push(...page.files.map((file) => file.name));
      cursor = page.cursor;
      expect(calls()).toBeLessThanOrEqual(FREE);
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(2);
    expect(names).toEqual(Array.from({ length: 60 }, (_, index) => `f${String(index).padStart(2, "0")}`));
  });

  test("a limit past the budget is refused, naming the largest that fits", async () => {
    const { response } = await call("GET", "/files?limit=80");
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toContain("limit=49");
  });
});

describe("the subrequests of each route, pinned", () => {
  test("a one-part file: stored in 3, its manifest in 1, its uploads listing in 2, deleted in 1", async () => {
    const upload = await call("POST", "/files/one", { body: "1\n2\n" });
    expect(upload.response.status).toBe(201);
    expect(upload.calls()).toBe(3); // beginUpload, put, publish
    const manifest = await call("GET", "/files/one");
    expect([manifest.response.status, manifest.calls()]).toEqual([200, 1]);
    const uploads = await call("GET", "/files/one/uploads");
    expect([uploads.response.status, uploads.calls()]).toEqual([200, 2]);
    const removal = await call("DELETE", "/files/one");
    expect([removal.response.status, removal.calls()]).toEqual([204, 1]);
  });
});

describe("GET /limits", () => {
  test("states the limits a client sizes its requests by, from the settings alone: no subrequest", async () => {
    const free = await call("GET", "/limits", { vars: { MAX_SEGMENT_BYTES: "3000000" } });
    expect([free.response.status, free.calls()]).toEqual([200, 0]);
    expect(await free.response.json()).toEqual({
      plan: "free",
      subrequests: 50,
      maxSegmentBytes: 3_000_000,
      maxUploadBytes: 4 * 1024 ** 3,
      maxUploadNumbers: 500_000_000,
      defaultMaxPartBytes: 10 * 1024 ** 2,
      maxSegments: 10_000,
    });
    const paid = await call("GET", "/limits", { plan: "paid" });
    expect([paid.response.status, paid.calls()]).toEqual([200, 0]);
    expect(await paid.response.json()).toMatchObject({
      plan: "paid",
      subrequests: 10_000,
      maxSegmentBytes: 95_000_000,
    });
    // A Paid worker whose `[limits] subrequests` is raised says so with SUBREQUEST_LIMIT.
    const raised = await call("GET", "/limits", { plan: "paid", vars: { SUBREQUEST_LIMIT: "50000" }, meter: 50_000 });
    expect(await raised.response.json()).toMatchObject({ plan: "paid", subrequests: 50_000 });
  });
});

describe("maintenance on the Free plan", () => {
  test("POST /sweep sweeps 60 names in steps within budget, following the cursor", async () => {
    for (let index = 0; index < 60; index++) await env.BUCKET.put(`n${index}/uploads/dead/part-00000000`, "1\n");
    let cursor: string | null = null;
    let steps = 0;
    let names = 0;
    do {
      const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
      const { response, calls } = await call("POST", `/sweep${query}`);
      expect(response.status).toBe(200);
      const step = (await response.json()) as { names: number; removed: number; cursor: string | null };
      names += step.names;
      cursor = step.cursor;
      expect(calls()).toBeLessThanOrEqual(FREE);
      steps += 1;
    } while (cursor !== null);
    expect({ steps, names }).toEqual({ steps: 2, names: 60 });
    expect(await bucketKeys()).toEqual([]);
  });
});

describe("upload sessions on the Free plan", () => {
  test("a session answers the largest segment that fits the budget, and such a segment is stored", async () => {
    const opened = await call("POST", "/files/segmented/uploads?maxPartBytes=1024");
    expect(opened.response.status).toBe(201);
    const { sessionId, segmentMaxBytes } = (await opened.response.json()) as {
      sessionId: string;
      segmentMaxBytes: number;
    };
    // 1,024-byte parts hold at least 1,007 bytes of lines: 50 subrequests leave room for about 41 of them.
    expect(segmentMaxBytes).toBeGreaterThan(40 * 1007);
    expect(segmentMaxBytes).toBeLessThan(50 * 1024);
    const line = "1234567\n";
    const fitting = line.repeat(Math.floor(segmentMaxBytes / line.length));
    const segment = await call("PUT", `/files/segmented/uploads/${sessionId}/segments/0`, {
      body: fitting,
      headers: { "Content-Length": String(fitting.length) },
    });
    expect(segment.response.status).toBe(201);
    expect(segment.calls()).toBeLessThanOrEqual(FREE);
    const tooLarge = line.repeat(Math.floor(segmentMaxBytes / line.length) + 300);
    const refused = await call("PUT", `/files/segmented/uploads/${sessionId}/segments/1`, {
      body: tooLarge,
      headers: { "Content-Length": String(tooLarge.length) },
    });
    expect(refused.response.status).toBe(422);
    const completed = await call("POST", `/files/segmented/uploads/${sessionId}/complete`, {
      body: JSON.stringify({ segments: 1 }),
    });
    expect(completed.response.status).toBe(201);
  });

  test("a segment of one part takes 4 subrequests: look-up, beginSegment, put, acceptSegment", async () => {
    const opened = await call("POST", "/files/one-part-segment/uploads");
    const { sessionId } = (await opened.response.json()) as { sessionId: string };
    const body = "1\n2\n3\n";
    const segment = await call("PUT", `/files/one-part-segment/uploads/${sessionId}/segments/0`, {
      body,
      headers: { "Content-Length": String(body.length) },
    });
    expect(segment.response.status).toBe(201);
    expect(segment.calls()).toBe(4);
  });

  test("with 10 MiB parts the session's segments are MAX_SEGMENT_BYTES, under the body limit", async () => {
    const opened = await call("POST", "/files/large-parts/uploads");
    expect(((await opened.response.json()) as { segmentMaxBytes: number }).segmentMaxBytes).toBe(95_000_000);
  });
});

describe("upload sessions on the Paid plan (10,000 subrequests)", () => {
  test("with 1 KiB parts a session's segments are bound by the 4,000 parts of a file, not by the budget", async () => {
    const opened = await call("POST", "/files/paid-small-parts/uploads?maxPartBytes=1024", { plan: "paid" });
    expect(opened.response.status).toBe(201);
    const { segmentMaxBytes } = (await opened.response.json()) as { segmentMaxBytes: number };
    expect(segmentMaxBytes).toBe(4000 * 1024); // MAX_PARTS parts of 1 KiB: 4,000 writes and the calls around them
  });
});

describe("names nobody uploaded", () => {
  test("100 of them read, deleted and asked about write no Durable Object storage", async () => {
    const names = Array.from({ length: 100 }, (_, index) => `unknown-${index}`);
    for (const name of names) {
      const answers = [
        await call("GET", `/files/${name}`),
        await call("GET", `/files/${name}/content`),
        await call("GET", `/files/${name}/parts/0`),
        await call("DELETE", `/files/${name}`),
        await call("GET", `/files/${name}/uploads/no-such-session`),
        await call("DELETE", `/files/${name}/uploads/no-such-session`),
      ].map(({ response }) => response.status);
      expect(answers).toEqual([404, 404, 404, 404, 404, 404]);
      expect((await call("GET", `/files/${name}/uploads`)).response.status).toBe(200);
    }
    for (const name of names) {
      const tables = await runInDurableObject(env.COORDINATOR.getByName(name), (_instance, state) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
      );
      expect(tables.filter((table) => !String(table.name).startsWith("_cf_"))).toEqual([]);
    }
  });
});

describe("bounded input", () => {
  test("a Drainpipe-Attempt header past 128 characters is refused with 431", async () => {
    const { response, calls } = await call("POST", "/files/long", {
      body: "1\n",
      headers: { "Drainpipe-Attempt": "x".repeat(129) },
    });
    expect(response.status).toBe(431);
    expect(calls()).toBe(0);
  });

  test("a session completion body past 1 KiB is refused with 413 without being held", async () => {
    const opened = await call("POST", "/files/json/uploads");
    const { sessionId } = (await opened.response.json()) as { sessionId: string };
    for (const body of [`{"segments": 1, "pad": "${"x".repeat(2000)}"}`, "[".repeat(10_000_000)]) {
      const { response } = await call("POST", `/files/json/uploads/${sessionId}/complete`, { body });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: string }).error).toBe("body-too-large");
    }
  });

  test("with public reads, the uploads listing still needs the token", async () => {
    const request = new Request(`${origin}/files/any/uploads`);
    const response = await worker.fetch(request, { ...env, PUBLIC_READS: "true" }, createExecutionContext());
    expect(response.status).toBe(401);
    const read = await worker.fetch(
      new Request(`${origin}/files`),
      { ...env, PUBLIC_READS: "true" },
      createExecutionContext(),
    );
    expect(read.status).toBe(200);
  });
});
