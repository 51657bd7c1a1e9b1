import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeEach, describe, expect, test } from "vitest";
import { type Manifest, versionKeys } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { call, callWorker, TEST_AUTH, TEST_ORIGIN } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

async function bucketKeys(prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), prefix)) keys.push(object.key);
  return keys.sort();
}

async function open(name: string, query = ""): Promise<string> {
  const response = await call("POST", `/files/${name}/uploads${query}`);
  expect(response.status).toBe(201);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

function put(name: string, sessionId: string, index: number, body: Uint8Array, headers: Record<string, string> = {}) {
  return call("PUT", `/files/${name}/uploads/${sessionId}/segments/${index}`, { body, headers });
}

function complete(name: string, sessionId: string, segments: number) {
  return call("POST", `/files/${name}/uploads/${sessionId}/complete`, { body: JSON.stringify({ segments }) });
}

/** Cuts `bytes` after the line breaks at or after each of `cuts` (byte offsets), like `split -C`. */
function cutAtLines(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= start) continue;
    const newline = bytes.indexOf(10, cut);
    if (newline < 0 || newline + 1 >= bytes.length) break;
    pieces.push(bytes.subarray(start, newline + 1));
    start = newline + 1;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return btoa(String.fromCharCode(...digest));
}

async function content(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await call("GET", `/files/${name}/content`)).arrayBuffer());
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("upload sessions", () => {
  const input = encodeNumbers(sampleNumbers(40_000, 7));

  test("segments sent out of order and at once make the file, byte for byte, in newline-aligned parts", async () => {
    const sessionId = await open("seg", "?maxPartBytes=4096");
    const pieces = cutAtLines(input, [50_000, 100_000, 180_000]);
    const answers = await Promise.all([...pieces.keys()].reverse().map((i) => put("seg", sessionId, i, pieces[i]!)));
    expect(answers.map((answer) => answer.status)).toEqual(pieces.map(() => 201));
    const first = (await answers.at(-1)!.json()) as { index: number; bytes: number; digest: string };
    expect(first).toMatchObject({ index: 0, bytes: pieces[0]!.length, digest: await sha256(pieces[0]!) });
    const status = (await (await call("GET", `/files/seg/uploads/${sessionId}`)).json()) as { segments: unknown[] };
    expect(status.segments).toHaveLength(pieces.length);
    const completed = await complete("seg", sessionId, pieces.length);
    expect(completed.status).toBe(201);
    const manifest = (await completed.json()) as Manifest;
    expect(manifest.source).toMatchObject({ kind: "segments", segments: pieces.length, bytes: input.length });
    expect(manifest.parts.map((part) => part.index)).toEqual(manifest.parts.map((_, i) => i));
    expect(manifest.parts.every((part) => part.bytes <= 4096)).toBe(true);
    expect(await content("seg")).toEqual(input);
    expect(await (await complete("seg", sessionId, pieces.length)).json()).toEqual(manifest);
    expect((await put("seg", sessionId, 0, pieces[0]!)).status).toBe(404);
  });

  test("a missing segment is 409 with the missing indexes, and nothing is published", async () => {
    const sessionId = await open("gap");
    const pieces = cutAtLines(input, [60_000, 120_000]);
    await put("gap", sessionId, 0, pieces[0]!);
    await put("gap", sessionId, 2, pieces[2]!);
    const response = await complete("gap", sessionId, 3);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "missing-segments", missing: [1] });
    expect((await call("GET", "/files/gap")).status).toBe(404);
  });

  test("a segment that cuts a line in two is 409 naming it", async () => {
    const sessionId = await open("cut");
    await put("cut", sessionId, 0, new TextEncoder().encode("1\n2"));
    await put("cut", sessionId, 1, new TextEncoder().encode("3\n"));
    const response = await complete("cut", sessionId, 2);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "cut-lines", segments: [0] });
  });

  test("re-sending a segment replaces it; the earlier write's objects go", async () => {
    const sessionId = await open("again", "?maxPartBytes=4096");
    await put("again", sessionId, 0, new TextEncoder().encode("5\n6\n"));
    const before = await bucketKeys("again/");
    await put("again", sessionId, 0, new TextEncoder().encode("7\n8\n"));
    const after = await bucketKeys("again/");
    expect(after).toHaveLength(before.length);
    expect(after).not.toEqual(before);
    expect((await complete("again", sessionId, 1)).status).toBe(201);
    expect(new TextDecoder().decode(await content("again"))).toBe("7\n8\n");
  });

  test("a bad line answers 400 with the segment and the line, column and offset within it; nothing stays", async () => {
    const sessionId = await open("bad");
    const response = await put("bad", sessionId, 5, new TextEncoder().encode("1\n2\n3x\n"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid-number", segment: 5, line: 3, column: 2, offset: 5 });
    expect(await bucketKeys("bad/")).toEqual([]);
  });

  test("Content-Digest: a match is stored, a mismatch is 400 digest-mismatch with nothing stored", async () => {
    const sessionId = await open("dig");
    const body = new TextEncoder().encode("11\n12\n");
    const good = await put("dig", sessionId, 0, body, { "Content-Digest": `sha-256=:${await sha256(body)}:` });
    expect(good.status).toBe(201);
    const kept = await bucketKeys("dig/");
    const wrong = await put("dig", sessionId, 1, body, { "Content-Digest": `sha-256=:${await sha256(input)}:` });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "digest-mismatch", segment: 1 });
    expect(await bucketKeys("dig/")).toEqual(kept);
    const malformed = await put("dig", sessionId, 1, body, { "Content-Digest": "md5=:abc:" });
    expect(malformed.status).toBe(400);
    const single = await call("POST", "/files/digest-post", {
      body,
      headers: {
        "Content-Digest": `sha-256=:${await sha256(body)}:`,
      },
    });
    expect(((await single.json()) as Manifest).source).toMatchObject({ kind: "upload", digest: await sha256(body) });
    const mismatch = await call("POST", "/files/digest-post2", {
      body,
      headers: {
        "Content-Digest": `sha-256=:${await sha256(input)}:`,
      },
    });
    expect(mismatch.status).toBe(400);
    expect(await bucketKeys("digest-post2/")).toEqual([]);
  });

  test("DELETE aborts a session and removes every object it wrote", async () => {
    const sessionId = await open("gone", "?maxPartBytes=4096");
    await put("gone", sessionId, 0, input.subarray(0, input.indexOf(10, 30_000) + 1));
    expect((await bucketKeys("gone/")).length).toBeGreaterThan(0);
    expect((await call("DELETE", `/files/gone/uploads/${sessionId}`)).status).toBe(204);
    expect(await bucketKeys("gone/")).toEqual([]);
    expect((await call("GET", `/files/gone/uploads/${sessionId}`)).status).toBe(404);
    expect((await call("DELETE", `/files/gone/uploads/${sessionId}`)).status).toBe(404);
  });

  test("a session id used under another name is 404; a bad index is 400", async () => {
    const sessionId = await open("mine");
    expect((await put("yours", sessionId, 0, new TextEncoder().encode("1\n"))).status).toBe(404);
    expect((await put("mine", sessionId, 10_000, new TextEncoder().encode("1\n"))).status).toBe(400);
    expect((await put("mine", sessionId, "01" as unknown as number, new TextEncoder().encode("1\n"))).status).toBe(400);
  });

  test("a storage failure on a part of a segment leaves no summary; sending the segment again succeeds", async () => {
    const sessionId = await open("flaky", "?maxPartBytes=4096");
    let puts = 0;
    const failing = new Proxy(env.BUCKET, {
      get(target, property) {
        if (property === "put") {
          return (key: string, value: ArrayBufferView) =>
            ++puts === 3 ? Promise.reject(new Error(`injected R2 failure on ${key}`)) : target.put(key, value);
        }
        const member = Reflect.get(target, property) as unknown;
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    const piece = input.subarray(0, input.indexOf(10, 40_000) + 1);
    const path = `${TEST_ORIGIN}/files/flaky/uploads/${sessionId}/segments/0`;
    const failed = await callWorker(new Request(path, { method: "PUT", headers: TEST_AUTH, body: piece }), {
      ...env,
      BUCKET: failing,
    });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error: "storage-failed", segment: 0 });
    const status = (await (await call("GET", `/files/flaky/uploads/${sessionId}`)).json()) as { segments: unknown[] };
    expect(status.segments).toEqual([]);
    expect(await bucketKeys("flaky/")).toEqual([]);
    expect((await put("flaky", sessionId, 0, piece)).status).toBe(201);
    expect((await complete("flaky", sessionId, 1)).status).toBe(201);
    expect(await content("flaky")).toEqual(piece);
  });

  test("two completes at once publish one version", async () => {
    const sessionId = await open("twice");
    await put("twice", sessionId, 0, new TextEncoder().encode("1\n2\n"));
    const [a, b] = await Promise.all([complete("twice", sessionId, 1), complete("twice", sessionId, 1)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await a.json()).toEqual(await b.json());
  });

  test("a name holds at most 16 open sessions; the 17th is refused with 429 until one ends", async () => {
    const sessions = [];
    for (let index = 0; index < 16; index++) sessions.push(await open("crowded"));
    const refused = await call("POST", "/files/crowded/uploads");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe("too-many-sessions");
    expect((await call("DELETE", `/files/crowded/uploads/${sessions[0]}`)).status).toBe(204);
    await open("crowded");
  });

  test("a segment that would take its session past MAX_UPLOAD_BYTES is refused before it is stored", async () => {
    const small = { ...env, MAX_UPLOAD_BYTES: "10" };
    // As over HTTP, the segments declare their length.
    const request = (method: string, path: string, body?: string) => {
      const headers = body ? { ...TEST_AUTH, "Content-Length": String(body.length) } : TEST_AUTH;
      return callWorker(new Request(`${TEST_ORIGIN}${path}`, { method, headers, ...(body ? { body } : {}) }), small);
    };
    const opened = await request("POST", "/files/capped/uploads");
    const { sessionId } = (await opened.json()) as { sessionId: string };
    expect((await request("PUT", `/files/capped/uploads/${sessionId}/segments/0`, "1\n2\n3\n")).status).toBe(201);
    const refused = await request("PUT", `/files/capped/uploads/${sessionId}/segments/1`, "4\n5\n6\n");
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: string }).error).toBe("file-too-large");
    // Replacing a segment counts it once.
    expect((await request("PUT", `/files/capped/uploads/${sessionId}/segments/0`, "10\n20\n30\n")).status).toBe(201);
    expect((await bucketKeys("capped/")).length).toBe(1);
  });

  test("a completion refused as too large removes the session and everything it wrote", async () => {
    const sessionId = await open("toolarge");
    await put("toolarge", sessionId, 0, new TextEncoder().encode("1\n2\n3\n"));
    expect((await bucketKeys("toolarge/")).length).toBe(1);
    const small = { ...env, MAX_UPLOAD_NUMBERS: "2" };
    const completion = new Request(`${TEST_ORIGIN}/files/toolarge/uploads/${sessionId}/complete`, {
      method: "POST",
      headers: TEST_AUTH,
      body: JSON.stringify({ segments: 1 }),
    });
    const refused = await callWorker(completion, small);
    expect(refused.status).toBe(413);
    expect(await bucketKeys("toolarge/")).toEqual([]);
    expect((await call("GET", `/files/toolarge/uploads/${sessionId}`)).status).toBe(404);
  });

  test("replacing a file through a session is atomic for a reader that started before", async () => {
    expect((await call("POST", "/files/swap?maxPartBytes=4096", { body: input })).status).toBe(201);
    const reading = await call("GET", "/files/swap/content");
    const sessionId = await open("swap");
    await put("swap", sessionId, 0, new TextEncoder().encode("42\n"));
    expect((await complete("swap", sessionId, 1)).status).toBe(201);
    expect(new Uint8Array(await reading.arrayBuffer())).toEqual(input);
    expect(new TextDecoder().decode(await content("swap"))).toBe("42\n");
  });

  test("a session not completed within UPLOAD_TTL is removed by the coordinator's alarm", async () => {
    const opened = await callWorker(
      new Request(`${TEST_ORIGIN}/files/stale/uploads`, { method: "POST", headers: TEST_AUTH }),
      {
        ...env,
        UPLOAD_TTL: "3",
      },
    );
    const { sessionId } = (await opened.json()) as { sessionId: string };
    await put("stale", sessionId, 0, new TextEncoder().encode("1\n"));
    expect((await bucketKeys("stale/")).length).toBeGreaterThan(0);
    // The TTL leaves the steps above time to finish on a loaded machine; then it runs out.
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    await runDurableObjectAlarm(env.COORDINATOR.getByName("stale"));
    expect(await bucketKeys("stale/")).toEqual([]);
    expect((await call("GET", `/files/stale/uploads/${sessionId}`)).status).toBe(404);
  });

  test("property: random files cut at random lines, sent in random order (some twice), round-trip", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 0, maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 1000 }),
        async (count, cuts, resends, concurrency, shuffle) => {
          const name = `prop-${run++}`;
          const bytes = encodeNumbers(sampleNumbers(count, run));
          const pieces = cutAtLines(bytes, cuts);
          const sessionId = await open(name, "?maxPartBytes=2048");
          for (const resend of resends) {
            await put(name, sessionId, resend % pieces.length, new TextEncoder().encode("999\n"));
          }
          const order = [...pieces.keys()].sort((a, b) => ((a * shuffle) % 1009) - ((b * shuffle) % 1009));
          for (let start = 0; start < order.length; start += concurrency) {
            const batch = order.slice(start, start + concurrency);
            const statuses = await Promise.all(
              batch.map(async (i) => (await put(name, sessionId, i, pieces[i]!)).status),
            );
            expect(statuses).toEqual(batch.map(() => 201));
          }
          const manifest = (await (await complete(name, sessionId, pieces.length)).json()) as Manifest;
          expect(manifest.parts.every((part) => part.bytes <= 2048)).toBe(true);
          expect(await content(name)).toEqual(bytes);
          const keys = await bucketKeys(`${name}/`);
          expect(keys).toEqual(versionKeys(manifest));
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
