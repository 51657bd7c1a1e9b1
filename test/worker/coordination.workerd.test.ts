import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { type Manifest, versionKeys } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { call, callWorker, TEST_AUTH, TEST_ORIGIN } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), "")) keys.push(object.key);
  return keys.sort();
}

/** Every key the current manifest of `name` names, with the manifest itself: what a listing may hold. */
async function expectOnlyCurrentVersion(name: string): Promise<Manifest> {
  const manifest = (await (await call("GET", `/files/${name}`)).json()) as Manifest;
  expect(await bucketKeys()).toEqual(versionKeys(manifest));
  return manifest;
}

/** A request body the test releases piece by piece: `send` enqueues, `end` closes, `fail` errors it. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  return {
    stream,
    send: (bytes: Uint8Array) => controller.enqueue(bytes),
    end: () => controller.close(),
    fail: (reason: unknown) => controller.error(reason),
  };
}

/**
 * Retries `check` until it passes: for what the worker finishes after its answer (clean-up) or starts after a
 * request arrives, which takes as long as the machine's load makes it.
 */
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

/** Waits until the coordinator of `name` lists `count` uploads in flight. */
const untilUploads = (name: string, count: number) =>
  eventually(async () => {
    const { uploads } = (await (await call("GET", `/files/${name}/uploads`)).json()) as { uploads: unknown[] };
    expect(uploads).toHaveLength(count);
  });

beforeEach(async () => {
  await emptyR2Store();
});

describe("coordination of one file name across requests", () => {
  const older = encodeNumbers(sampleNumbers(20_000, 1));
  const newer = encodeNumbers(sampleNumbers(30_000, 2));

  test("a DELETE during an upload removes the current version and never the upload's parts", async () => {
    expect((await call("POST", "/files/race?maxPartBytes=4096", { body: older })).status).toBe(201);
    const body = controlledBody();
    const uploading = call("POST", "/files/race?maxPartBytes=4096", { body: body.stream });
    body.send(newer.subarray(0, 100_000));
    await untilUploads("race", 1);
    expect((await call("DELETE", "/files/race")).status).toBe(204);
    expect((await call("GET", "/files")).status).toBe(200);
    expect(((await (await call("GET", "/files")).json()) as { files: unknown[] }).files).toEqual([]);
    for (let burst = 0; burst < 5; burst++)
      expect([204, 404, 200]).toContain((await call("DELETE", "/files/race")).status);
    body.send(newer.subarray(100_000));
    body.end();
    expect((await uploading).status).toBe(201);
    const manifest = await expectOnlyCurrentVersion("race");
    expect(manifest.totals.bytes).toBe(newer.byteLength);
    const content = await call("GET", "/files/race/content");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(newer);
  });

  test("a reader that started before a replace gets the whole version it started, byte for byte", async () => {
    expect((await call("POST", "/files/slow?maxPartBytes=4096", { body: older })).status).toBe(201);
    const reading = await call("GET", "/files/slow/content");
    const reader = reading.body!.getReader();
    const first = await reader.read();
    expect((await call("POST", "/files/slow?maxPartBytes=4096", { body: newer })).status).toBe(201);
    expect((await call("DELETE", "/files/slow")).status).toBe(204);
    const chunks = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const received = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
    let offset = 0;
    for (const chunk of chunks) {
      received.set(chunk, offset);
      offset += chunk.byteLength;
    }
    expect(received).toEqual(older);
    await eventually(async () => expect(await bucketKeys()).toEqual([]));
  });

  test("a part that started before a replace is read whole", async () => {
    expect((await call("POST", "/files/part?maxPartBytes=65536", { body: older })).status).toBe(201);
    const reading = await call("GET", "/files/part/parts/0");
    const length = Number(reading.headers.get("Content-Length"));
    expect((await call("POST", "/files/part?maxPartBytes=4096", { body: newer })).status).toBe(201);
    const bytes = new Uint8Array(await reading.arrayBuffer());
    expect(bytes.byteLength).toBe(length);
    expect(bytes).toEqual(older.subarray(0, length));
    await eventually(() => expectOnlyCurrentVersion("part"));
  });

  test("32 concurrent writers of one name all get 201; the visible version is exactly one of them", async () => {
    const bodies = Array.from({ length: 32 }, (_, i) => `${i + 1}\n`);
    const responses = await Promise.all(bodies.map((body) => call("POST", "/files/cas32", { body })));
    expect(responses.map((response) => response.status)).toEqual(bodies.map(() => 201));
    const content = await (await call("GET", "/files/cas32/content")).text();
    expect(bodies).toContain(content);
    await eventually(() => expectOnlyCurrentVersion("cas32"));
  });

  test("POST, DELETE, POST, DELETE at once leave either nothing or one complete version", async () => {
    const results = await Promise.all([
      call("POST", "/files/mix?maxPartBytes=4096", { body: older }),
      call("DELETE", "/files/mix"),
      call("POST", "/files/mix?maxPartBytes=4096", { body: newer }),
      call("DELETE", "/files/mix"),
    ]);
    expect(results[0]!.status).toBe(201);
    expect(results[2]!.status).toBe(201);
    const listed = ((await (await call("GET", "/files")).json()) as { files: { name: string }[] }).files;
    if (listed.length === 0) {
      await eventually(async () => expect(await bucketKeys()).toEqual([]));
    } else {
      const manifest = await eventually(() => expectOnlyCurrentVersion("mix"));
      const content = new Uint8Array(await (await call("GET", "/files/mix/content")).arrayBuffer());
      expect(content).toEqual(manifest.totals.bytes === older.byteLength ? older : newer);
    }
  });

  test("a client that breaks off mid-body leaves nothing of its attempt; the previous version stays", async () => {
    expect((await call("POST", "/files/cut?maxPartBytes=4096", { body: older })).status).toBe(201);
    const before = await bucketKeys();
    const body = controlledBody();
    const uploading = callWorker(
      new Request(`${TEST_ORIGIN}/files/cut?maxPartBytes=4096`, {
        method: "POST",
        headers: { ...TEST_AUTH, "Content-Length": String(newer.byteLength) },
        body: body.stream,
      }),
    );
    body.send(newer.subarray(0, 150_000));
    await untilUploads("cut", 1);
    body.fail(new Error("client went away"));
    expect((await uploading).status).toBeGreaterThanOrEqual(400);
    await eventually(async () => expect(await bucketKeys()).toEqual(before));
    const content = new Uint8Array(await (await call("GET", "/files/cut/content")).arrayBuffer());
    expect(content).toEqual(older);
  });

  test("GET /files/:name/uploads shows an upload in flight with the client's attempt token", async () => {
    const body = controlledBody();
    const uploading = exports.default.fetch(
      new Request(`${TEST_ORIGIN}/files/seen`, {
        method: "POST",
        headers: { ...TEST_AUTH, "Drainpipe-Attempt": "cli-123" },
        body: body.stream,
      }),
    );
    body.send(older.subarray(0, 1000));
    await eventually(async () => {
      const status = (await (await call("GET", "/files/seen/uploads")).json()) as {
        uploads: { attempt: string | null; state: string }[];
      };
      expect(status.uploads).toMatchObject([{ attempt: "cli-123", state: "writing" }]);
    });
    body.send(older.subarray(1000));
    body.end();
    expect((await uploading).status).toBe(201);
    expect(((await (await call("GET", "/files/seen/uploads")).json()) as { uploads: unknown[] }).uploads).toEqual([]);
  });
});

describe("leftovers of dead uploads", () => {
  test("DELETE of a name that holds only leftovers removes them and says how many; then 404", async () => {
    await env.BUCKET.put("ghost/uploads/dead-1/part-00000000", "1\n");
    await env.BUCKET.put("ghost/uploads/dead-1/part-00000001", "2\n");
    const response = await call("DELETE", "/files/ghost");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: "ghost", removed: false, remnants: 2 });
    expect(await bucketKeys()).toEqual([]);
    expect((await call("DELETE", "/files/ghost")).status).toBe(404);
  });

  test("POST /sweep removes everything nothing refers to in the whole bucket and keeps live files", async () => {
    const input = encodeNumbers(sampleNumbers(2_000, 4));
    expect((await call("POST", "/files/live?maxPartBytes=4096", { body: input })).status).toBe(201);
    const live = await bucketKeys();
    await env.BUCKET.put("live/uploads/dead-2/part-00000000", "3\n");
    await env.BUCKET.put("other/uploads/dead-3/part-00000000", "4\n");
    await env.BUCKET.put("loose-object", "5\n");
    await env.BUCKET.put("..not-a-name/x", "6\n");
    const response = await call("POST", "/sweep");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ names: 2, removed: 4, cursor: null });
    expect(await bucketKeys()).toEqual(live);
    expect(new Uint8Array(await (await call("GET", "/files/live/content")).arrayBuffer())).toEqual(input);
  });

  test("POST /sweep needs the token", async () => {
    const response = await exports.default.fetch(new Request(`${TEST_ORIGIN}/sweep`, { method: "POST" }));
    expect(response.status).toBe(401);
  });
});

describe("HEAD", () => {
  test("answers like GET without a body on every GET route", async () => {
    const input = encodeNumbers(sampleNumbers(5_000, 3));
    expect((await call("POST", "/files/head?maxPartBytes=4096", { body: input })).status).toBe(201);
    for (const path of ["/files", "/files/head", "/files/head/parts/0", "/files/head/content", "/files/head/uploads"]) {
      const get = await call("GET", path);
      const head = await call("HEAD", path);
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get("Content-Type"), path).toBe(get.headers.get("Content-Type"));
      expect(await head.text(), path).toBe("");
      await get.arrayBuffer();
    }
    const content = await call("HEAD", "/files/head/content");
    expect(content.headers.get("Content-Length")).toBe(String(input.byteLength));
    expect((await call("HEAD", "/files/missing")).status).toBe(404);
  });
});
