import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeEach, describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import { call, callWorkerToEnd, TEST_AUTH, TEST_ORIGIN } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { recordingGets } from "../support/recording-gets.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// Byte ranges and validators of reads, inside workerd over real (miniflare) R2 and Durable Objects.

async function stored(name: string, bytes: Uint8Array, maxPartBytes = 1024): Promise<Manifest> {
  const response = await call("POST", `/files/${name}?maxPartBytes=${maxPartBytes}`, { body: bytes });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** Open reads of `name`: every read must have been released. */
async function openReads(name: string): Promise<number> {
  return ((await (await call("GET", `/files/${name}/uploads`)).json()) as { reads: number }).reads;
}

/** Bytes at which each part of `manifest` starts, and the content's size last. */
function boundaries(manifest: Manifest): number[] {
  const starts = [0];
  for (const part of manifest.parts) starts.push(starts.at(-1)! + part.bytes);
  return starts;
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("byte ranges of GET /files/:name/content", () => {
  const input = encodeNumbers(sampleNumbers(2_000, 11));

  test("a whole read says it accepts ranges", async () => {
    await stored("whole", input);
    const response = await call("GET", "/files/whole/content");
    expect(response.status).toBe(200);
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(await bytesOf(response)).toEqual(input);
  });

  test.each([
    ["bytes=0-99", 0, 100],
    ["bytes=1000-2047", 1000, 1048],
    ["bytes=5000-", 5000, undefined],
    ["bytes=-37", -37, undefined],
    ["bytes=0-", 0, undefined],
    ["bytes=10-99999999", 10, undefined],
    [" BYTES = 7-7 ", 7, 1],
    ["bytes=-99999999", 0, undefined],
  ])("%s answers 206 with exactly those bytes", async (range, start, length) => {
    await stored("ranged", input);
    const from = start < 0 ? input.length + start : start;
    const to = length === undefined ? input.length : from + length;
    const response = await call("GET", "/files/ranged/content", { headers: { Range: range } });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes ${from}-${to - 1}/${input.length}`);
    expect(response.headers.get("Content-Length")).toBe(String(to - from));
    expect(await bytesOf(response)).toEqual(input.subarray(from, to));
    expect(await openReads("ranged")).toBe(0);
  });

  test.each(["bytes=SIZE-", "bytes=SIZE-SIZE", "bytes=-0"])(
    "%s answers 416 with the size, and releases its read",
    async (range) => {
      await stored("past", input);
      const response = await call("GET", "/files/past/content", {
        headers: {
          Range: range.replaceAll("SIZE", String(input.length)),
        },
      });
      expect(response.status).toBe(416);
      expect(response.headers.get("Content-Range")).toBe(`bytes */${input.length}`);
      expect(((await response.json()) as { error: string }).error).toBe("range-not-satisfiable");
      expect(await openReads("past")).toBe(0);
    },
  );

  test.each(["bytes=5-1", "items=0-9", "bytes=abc", "bytes=", "bytes=1-2-3", "bytes=0-1,5-6"])(
    "%s (invalid, or several ranges) answers 200 with the whole body",
    async (range) => {
      await stored("ignored", input);
      const response = await call("GET", "/files/ignored/content", { headers: { Range: range } });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Range")).toBeNull();
      expect(await bytesOf(response)).toEqual(input);
    },
  );

  test("HEAD with a range answers the 206's headers and no body", async () => {
    await stored("head", input);
    const response = await call("HEAD", "/files/head/content", { headers: { Range: "bytes=10-19" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Length")).toBe("10");
    expect(response.headers.get("Content-Range")).toBe(`bytes 10-19/${input.length}`);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  test("HEAD of the content, a part or a range of either gets a GET's headers and reads nothing from R2", async () => {
    await stored("head-cost", input);
    for (const [path, headers] of [
      ["/files/head-cost/content", {}],
      ["/files/head-cost/content", { Range: "bytes=10-1999" }],
      ["/files/head-cost/parts/1", {}],
      ["/files/head-cost/parts/1", { Range: "bytes=-10" }],
    ] as const) {
      const gets: number[] = [];
      const head = await callWorkerToEnd(
        new Request(`${TEST_ORIGIN}${path}`, { method: "HEAD", headers: { ...TEST_AUTH, ...headers } }),
        { ...env, BUCKET: recordingGets(env.BUCKET, gets) } as DrainpipeEnv,
      );
      const get = await call("GET", path, { headers });
      expect([head.status, [...head.headers]]).toEqual([get.status, [...get.headers]]);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      await get.arrayBuffer();
      expect(gets).toEqual([]);
    }
  });

  test("random files, part sizes and ranges, many on part boundaries, match slices of the stored bytes", {
    timeout: 240_000,
  }, async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3_000 }),
        fc.integer({ min: 1024, max: 4096 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 8,
        }),
        async (count, maxPartBytes, seed, picks) => {
          const bytes = encodeNumbers(sampleNumbers(count, seed));
          const name = `prop-${++file}`;
          const manifest = await stored(name, bytes, maxPartBytes);
          const edges = boundaries(manifest);
          for (const [a, b, nudge, form] of picks) {
            // Start and end on a part boundary (nudged by up to 2 bytes either way), or anywhere.
            const at = (pick: number) => Math.min(Math.max(edges[pick % edges.length]! + nudge, 0), bytes.length - 1);
            const first = form === 3 ? a % bytes.length : at(a);
            const last = Math.max(first, form === 3 ? b % bytes.length : at(b) - 1);
            const [header, from, to] =
              form === 1
                ? [`bytes=${first}-`, first, bytes.length]
                : form === 2
                  ? [`bytes=-${bytes.length - first}`, first, bytes.length]
                  : [`bytes=${first}-${last}`, first, last + 1];
            const response = await call("GET", `/files/${name}/content`, { headers: { Range: header } });
            expect(response.status).toBe(206);
            expect(response.headers.get("Content-Range")).toBe(`bytes ${from}-${to - 1}/${bytes.length}`);
            expect(await bytesOf(response)).toEqual(bytes.subarray(from, to));
            // The same range of the part it starts in, cut to that part.
            const index = edges.findLastIndex((edge) => edge <= from);
            const part = manifest.parts[index]!;
            const inPart = [from - edges[index]!, Math.min(to, edges[index + 1]!) - edges[index]!] as const;
            const partResponse = await call("GET", `/files/${name}/parts/${index}`, {
              headers: {
                Range: `bytes=${inPart[0]}-${inPart[1] - 1}`,
              },
            });
            expect(partResponse.status).toBe(206);
            expect(partResponse.headers.get("Content-Range")).toBe(`bytes ${inPart[0]}-${inPart[1] - 1}/${part.bytes}`);
            expect(await bytesOf(partResponse)).toEqual(bytes.subarray(from, edges[index]! + inPart[1]));
          }
        },
      ),
      { numRuns: 30, seed: 25 },
    );
  });
});

describe("byte ranges of GET /files/:name/parts/:index", () => {
  test("a range of a part, a suffix, and one past its end", async () => {
    const input = encodeNumbers(sampleNumbers(2_000, 12));
    const manifest = await stored("parts", input);
    const part = manifest.parts[2]!;
    const start = boundaries(manifest)[2]!;
    const middle = await call("GET", "/files/parts/parts/2", { headers: { Range: "bytes=3-12" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("Content-Range")).toBe(`bytes 3-12/${part.bytes}`);
    expect(await bytesOf(middle)).toEqual(input.subarray(start + 3, start + 13));
    const suffix = await call("GET", "/files/parts/parts/2", { headers: { Range: "bytes=-5" } });
    expect(await bytesOf(suffix)).toEqual(input.subarray(start + part.bytes - 5, start + part.bytes));
    const past = await call("GET", "/files/parts/parts/2", { headers: { Range: `bytes=${part.bytes}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${part.bytes}`);
    expect(await openReads("parts")).toBe(0);
  });
});

describe("validators", () => {
  test("one strong ETag and Last-Modified per version: on the manifest, the content and every part", async () => {
    const input = encodeNumbers(sampleNumbers(1_000, 13));
    const created = await call("POST", "/files/tagged?maxPartBytes=1024", { body: input });
    const manifest = (await created.json()) as Manifest;
    const etag = `"${manifest.uploadId}"`;
    const modified = new Date(manifest.createdAt).toUTCString();
    const answers = [
      created,
      await call("GET", "/files/tagged"),
      await call("GET", "/files/tagged/content"),
      await call("HEAD", "/files/tagged/content"),
      ...(await Promise.all(manifest.parts.map((part) => call("GET", `/files/tagged/parts/${part.index}`)))),
    ];
    expect(manifest.parts.length).toBeGreaterThan(2);
    for (const answer of answers) {
      expect([answer.headers.get("ETag"), answer.headers.get("Last-Modified")]).toEqual([etag, modified]);
      if (!answer.bodyUsed) await answer.arrayBuffer();
    }
    const again = await stored("tagged", input);
    const reread = await call("GET", "/files/tagged/content");
    expect(reread.headers.get("ETag")).toBe(`"${again.uploadId}"`);
    expect(reread.headers.get("ETag")).not.toBe(etag);
    expect(await bytesOf(reread)).toEqual(input);
  });

  test("If-None-Match with the current ETag answers 304 without a body; with another, 200", async () => {
    const old = await stored("cached", encodeNumbers(sampleNumbers(500, 14)));
    const current = await stored("cached", encodeNumbers(sampleNumbers(500, 14)));
    for (const path of ["/files/cached", "/files/cached/content", "/files/cached/parts/0"]) {
      const fresh = await call("GET", path, { headers: { "If-None-Match": `"x", "${current.uploadId}"` } });
      expect(fresh.status).toBe(304);
      expect(fresh.headers.get("ETag")).toBe(`"${current.uploadId}"`);
      expect(await fresh.text()).toBe("");
      const weak = await call("GET", path, { headers: { "If-None-Match": `W/"${current.uploadId}"` } });
      expect(weak.status).toBe(304);
      const stale = await call("GET", path, { headers: { "If-None-Match": `"${old.uploadId}"` } });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
      expect((await call("GET", path, { headers: { "If-None-Match": "*" } })).status).toBe(304);
    }
    expect(await openReads("cached")).toBe(0);
  });

  test("If-Range: the current ETag keeps the range; a stale or weak one or a date gets the whole body", async () => {
    const input = encodeNumbers(sampleNumbers(500, 15));
    const old = await stored("resumable", input);
    const current = await stored("resumable", input);
    const ranged = (ifRange: string) =>
      call("GET", "/files/resumable/content", { headers: { Range: "bytes=100-", "If-Range": ifRange } });
    const kept = await ranged(`"${current.uploadId}"`);
    expect(kept.status).toBe(206);
    expect(await bytesOf(kept)).toEqual(input.subarray(100));
    for (const stale of [`"${old.uploadId}"`, `W/"${current.uploadId}"`, new Date(current.createdAt).toUTCString()]) {
      const whole = await ranged(stale);
      expect(whole.status).toBe(200);
      expect(await bytesOf(whole)).toEqual(input);
    }
  });

  test("If-Match and If-Unmodified-Since on reads: 412 when stale, the read when current", async () => {
    const old = await stored("guarded", encodeNumbers(sampleNumbers(500, 16)));
    const current = await stored("guarded", encodeNumbers(sampleNumbers(500, 17)));
    const before = new Date(Date.parse(current.createdAt) - 5_000).toUTCString();
    const after = new Date(Date.parse(current.createdAt) + 5_000).toUTCString();
    for (const path of ["/files/guarded", "/files/guarded/content", "/files/guarded/parts/0"]) {
      const stale = await call("GET", path, { headers: { "If-Match": `"${old.uploadId}"` } });
      expect(stale.status).toBe(412);
      expect(await stale.json()).toMatchObject({ error: "precondition-failed", etag: `"${current.uploadId}"` });
      expect((await call("GET", path, { headers: { "If-Match": `W/"${current.uploadId}"` } })).status).toBe(412);
      expect((await call("GET", path, { headers: { "If-Unmodified-Since": before } })).status).toBe(412);
      const satisfied: Record<string, string>[] = [
        { "If-Match": `"${current.uploadId}"` },
        { "If-Match": "*" },
        { "If-Unmodified-Since": after },
      ];
      for (const headers of satisfied) {
        const read = await call("GET", path, { headers });
        expect(read.status).toBe(200);
        await read.arrayBuffer();
      }
    }
    expect(await openReads("guarded")).toBe(0);
  });
});

describe("conditional writes", () => {
  const body = encodeNumbers(sampleNumbers(3_000, 18));

  async function bucketKeys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of listAll(new R2Store(env.BUCKET), "")) keys.push(object.key);
    return keys.sort();
  }

  const keysOf = (name: string, manifest: Manifest) => [`${name}/manifest.json`, ...manifest.parts.map((p) => p.key)];

  test("If-None-Match: * creates a free name only; a second one gets 412 and leaves nothing", async () => {
    const created = await call("POST", "/files/once?maxPartBytes=1024", { headers: { "If-None-Match": "*" }, body });
    expect(created.status).toBe(201);
    const manifest = (await created.json()) as Manifest;
    const refused = await call("POST", "/files/once?maxPartBytes=1024", { headers: { "If-None-Match": "*" }, body });
    expect(refused.status).toBe(412);
    expect(await refused.json()).toMatchObject({ error: "precondition-failed", etag: `"${manifest.uploadId}"` });
    expect(await bucketKeys()).toEqual(keysOf("once", manifest).sort());
    expect(
      (await call("GET", "/files/once/content", { headers: { "If-Match": `"${manifest.uploadId}"` } })).status,
    ).toBe(200);
  });

  test("If-Match replaces only the named version, and deletes only it", async () => {
    const first = await stored("guarded", body);
    const second = await stored("guarded", body);
    const stale = await call("POST", "/files/guarded?maxPartBytes=1024", {
      headers: { "If-Match": `"${first.uploadId}"` },
      body,
    });
    expect(stale.status).toBe(412);
    expect(await bucketKeys()).toEqual(keysOf("guarded", second).sort());
    const replaced = await call("POST", "/files/guarded?maxPartBytes=1024", {
      headers: { "If-Match": `"${second.uploadId}"` },
      body,
    });
    expect(replaced.status).toBe(201);
    const third = (await replaced.json()) as Manifest;
    expect(replaced.headers.get("ETag")).toBe(`"${third.uploadId}"`);
    const staleDelete = await call("DELETE", "/files/guarded", { headers: { "If-Match": `"${second.uploadId}"` } });
    expect(staleDelete.status).toBe(412);
    expect(await bucketKeys()).toEqual(keysOf("guarded", third).sort());
    expect((await call("DELETE", "/files/guarded", { headers: { "If-Match": `"${third.uploadId}"` } })).status).toBe(
      204,
    );
    expect(await bucketKeys()).toEqual([]);
    const missing = await call("DELETE", "/files/guarded", { headers: { "If-Match": "*" } });
    expect(missing.status).toBe(412);
    expect(await missing.json()).toMatchObject({ error: "precondition-failed", etag: null });
    expect((await call("POST", "/files/guarded", { headers: { "If-Match": "*" }, body })).status).toBe(412);
    expect(await bucketKeys()).toEqual([]);
  });

  test("a session's completion honours If-Match and If-None-Match; a refused one removes the session", async () => {
    const openSession = async () => {
      const opened = await call("POST", "/files/sessioned/uploads?maxPartBytes=1024");
      const { sessionId } = (await opened.json()) as { sessionId: string };
      const segment = await call("PUT", `/files/sessioned/uploads/${sessionId}/segments/0`, { body });
      expect(segment.status).toBe(201);
      return sessionId;
    };
    const complete = (id: string, headers: Record<string, string>) =>
      call("POST", `/files/sessioned/uploads/${id}/complete`, { headers, body: JSON.stringify({ segments: 1 }) });
    const first = await complete(await openSession(), { "If-None-Match": "*" });
    expect(first.status).toBe(201);
    const manifest = (await first.json()) as Manifest;
    expect(first.headers.get("ETag")).toBe(`"${manifest.uploadId}"`);
    const refusedId = await openSession();
    const refused = await complete(refusedId, { "If-None-Match": "*" });
    expect(refused.status).toBe(412);
    expect(await bucketKeys()).toEqual(keysOf("sessioned", manifest).sort());
    expect((await call("GET", `/files/sessioned/uploads/${refusedId}`)).status).toBe(404);
    const replaced = await complete(await openSession(), { "If-Match": `"${manifest.uploadId}"` });
    expect(replaced.status).toBe(201);
  });

  test("two replaces of one ETag at once: exactly one wins, the other gets 412 and leaves nothing", async () => {
    const original = await stored("raced", body);
    // Both uploads are admitted (the condition holds for both) before either publishes: the coordinator decides
    // at publication, one at a time.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.subarray(0, 2048));
          await gate;
          controller.enqueue(body.subarray(2048));
          controller.close();
        },
      });
    const headers = { "If-Match": `"${original.uploadId}"` };
    const racing = [0, 1].map(() => call("POST", "/files/raced?maxPartBytes=1024", { headers, body: streamed() }));
    for (;;) {
      const listing = (await (await call("GET", "/files/raced/uploads")).json()) as { uploads: unknown[] };
      if (listing.uploads.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    open();
    const answers = await Promise.all(racing);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 412]);
    const winner = (await answers.find((answer) => answer.status === 201)!.json()) as Manifest;
    const loser = (await answers.find((answer) => answer.status === 412)!.json()) as { etag: string };
    expect(loser.etag).toBe(`"${winner.uploadId}"`);
    expect(await bucketKeys()).toEqual(keysOf("raced", winner).sort());
    const listing = (await (await call("GET", "/files/raced/uploads")).json()) as { uploads: unknown[] };
    expect(listing.uploads).toEqual([]);
  });
});
