import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import { type Manifest, versionKeys } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { text, utf8 } from "../support/bytes.ts";
import { call } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

async function bucketKeys(prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), prefix)) keys.push(object.key);
  return keys;
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("POST /files/:name", () => {
  test("stores canonical input as newline-aligned parts; GET content is byte-identical", async () => {
    const input = encodeNumbers(sampleNumbers(30_000));
    const response = await call("POST", "/files/sample?maxPartBytes=8192", { body: input });
    expect(response.status).toBe(201);
    const manifest = (await response.json()) as Manifest;
    expect(manifest.source).toEqual({ kind: "upload", bytes: input.length, lines: 30_000, canonical: true });
    expect(manifest.totals).toEqual({ parts: manifest.parts.length, bytes: input.length, numbers: 30_000 });
    expect(manifest.parts.length).toBeGreaterThan(20);

    const content = await call("GET", "/files/sample/content");
    expect(content.status).toBe(200);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(input);

    let offset = 0;
    for (const part of manifest.parts) {
      const response = await call("GET", `/files/sample/parts/${part.index}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.length).toBe(part.bytes);
      expect(bytes.length).toBeLessThanOrEqual(8192);
      expect(bytes.at(-1)).toBe(10);
      expect(bytes).toEqual(input.subarray(offset, offset + part.bytes));
      offset += part.bytes;
    }
    expect(await bucketKeys()).toEqual(versionKeys(manifest));
  });

  test("normalises non-canonical input and says so in the manifest", async () => {
    const response = await call("POST", "/files/messy", { body: utf8("007\r\n\n-0\n12\n-5") });
    expect(response.status).toBe(201);
    const manifest = (await response.json()) as Manifest;
    expect(manifest.source).toMatchObject({ kind: "upload", canonical: false, lines: 5 });
    expect(text(new Uint8Array(await (await call("GET", "/files/messy/content")).arrayBuffer()))).toBe(
      "7\n0\n12\n-5\n",
    );
  });

  test("an empty body stores an empty file", async () => {
    const response = await call("POST", "/files/nothing", { body: new Uint8Array(0) });
    expect(response.status).toBe(201);
    expect(((await response.json()) as Manifest).totals).toEqual({ parts: 0, bytes: 0, numbers: 0 });
    expect(await (await call("GET", "/files/nothing/content")).text()).toBe("");
  });

  test("bad input is a 400 naming line and column, and nothing is written", async () => {
    const body = `${"1\n".repeat(50_000)}12\n3x4\n`;
    const response = await call("POST", "/files/bad?maxPartBytes=1024", { body: utf8(body) });
    expect(response.status).toBe(400);
    const error = (await response.json()) as Record<string, unknown>;
    expect(error).toMatchObject({ error: "invalid-number", line: 50_002, column: 2, reason: "unexpected-byte" });
    expect(String(error.detail)).toMatch(/line 50002, column 2/);
    expect(await bucketKeys()).toEqual([]);
  });

  test("a failed replacement keeps the previous version readable", async () => {
    expect((await call("POST", "/files/keep", { body: utf8("1\n2\n3\n") })).status).toBe(201);
    expect((await call("POST", "/files/keep", { body: utf8("4\n5\nnope\n") })).status).toBe(400);
    expect(await (await call("GET", "/files/keep/content")).text()).toBe("1\n2\n3\n");
  });

  test.each([
    ["12", 400],
    ["abc", 400],
    ["1073741825", 400],
    ["1024", 201],
  ])("maxPartBytes=%s gives %i", async (value, status) => {
    const response = await call("POST", `/files/size?maxPartBytes=${value}`, { body: utf8("1\n") });
    expect(response.status).toBe(status);
    if (status === 400) expect(await response.json()).toMatchObject({ error: "invalid-max-part-bytes" });
  });

  test("invalid names are refused", async () => {
    for (const name of ["a..b", ".hidden", "a%2Fb", "a%00b", "x".repeat(129)]) {
      const response = await call("POST", `/files/${name}`, { body: utf8("1\n") });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid-name" });
    }
    expect(await bucketKeys()).toEqual([]);
  });

  test("dot segments are resolved by URL parsing and never reach a name", async () => {
    expect((await call("POST", "/files/../files/x/..", { body: utf8("1\n") })).status).toBe(404);
    expect(await bucketKeys()).toEqual([]);
  });
});

describe("POST /files/:name/primes", () => {
  test("generates and stores the first N primes", async () => {
    const response = await call("POST", "/files/p/primes?count=1000&maxPartBytes=1024");
    expect(response.status).toBe(201);
    const manifest = (await response.json()) as Manifest;
    expect(manifest.source).toEqual({ kind: "primes", count: 1000 });
    expect(manifest.totals.numbers).toBe(1000);
    expect(manifest.parts[0]!.first).toBe(2);
    expect(manifest.parts.at(-1)!.last).toBe(7919);
    const lines = (await (await call("GET", "/files/p/content")).text()).split("\n");
    expect(lines.slice(0, 5)).toEqual(["2", "3", "5", "7", "11"]);
    expect(lines.length).toBe(1001);
  });

  test("a missing or out-of-range count is a 400", async () => {
    expect((await call("POST", "/files/p/primes")).status).toBe(400);
    expect((await call("POST", "/files/p/primes?count=0")).status).toBe(400);
    expect((await call("POST", "/files/p/primes?count=1e3")).status).toBe(400);
  });
});

describe("reading and removing", () => {
  test("GET /files lists complete files only", async () => {
    await call("POST", "/files/b", { body: utf8("1\n") });
    await call("POST", "/files/a", { body: utf8("2\n3\n") });
    await env.BUCKET.put("c/uploads/x/part-00000000", "9\n");
    const body = (await (await call("GET", "/files")).json()) as { files: { name: string }[] };
    expect(body.files.map((file) => file.name)).toEqual(["a", "b"]);
  });

  test("GET of a manifest, a part and the content of a missing file are 404s", async () => {
    await call("POST", "/files/one", { body: utf8("1\n") });
    for (const path of [
      "/files/none",
      "/files/none/content",
      "/files/none/parts/0",
      "/files/one/parts/1",
      "/files/one/parts/x",
    ]) {
      const response = await call("GET", path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: "not-found" });
    }
  });

  test("DELETE removes every object of the file", async () => {
    await call("POST", "/files/d?maxPartBytes=1024", { body: encodeNumbers(sampleNumbers(2_000)) });
    expect((await call("DELETE", "/files/d")).status).toBe(204);
    expect(await bucketKeys()).toEqual([]);
    expect((await call("DELETE", "/files/d")).status).toBe(404);
  });
});

describe("routing", () => {
  test("unknown routes are 404 and wrong methods 405 with Allow", async () => {
    expect((await call("GET", "/nope")).status).toBe(404);
    const response = await call("PUT", "/files/x", { body: "1\n" });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, GET, HEAD, DELETE");
    expect(await response.json()).toMatchObject({ error: "method-not-allowed" });
  });
});
