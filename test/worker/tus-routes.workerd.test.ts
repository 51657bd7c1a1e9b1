import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { RequestBudget } from "../../src/store/request-budget.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import { type CallOptions, call, callMetered, callWorker, TEST_AUTH, TEST_ORIGIN } from "../support/call-worker.ts";

// The tus routes inside workerd with real miniflare R2 and Durable Objects: what a tus upload stores is what one
// POST of the same bytes stores, whatever the PATCHes' cuts; errors, budgets, expiry and the sweep.

const tus = { "Tus-Resumable": "1.0.0" };
const octets = { "Content-Type": "application/offset+octet-stream" };
const encoder = new TextEncoder();

/** {@linkcode call} with `Tus-Resumable`, which every request of the tus protocol carries. */
function tusCall(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  return call(method, path, { ...options, headers: { ...tus, ...options.headers } });
}

/** `Upload-Metadata` of `pairs`, values base64. */
function metadata(pairs: Record<string, string>): string {
  return Object.entries(pairs)
    .map(([key, value]) => `${key} ${btoa(String.fromCharCode(...encoder.encode(value)))}`)
    .join(",");
}

/** Creates a tus upload; resolves with its URL path. */
async function create(headers: Record<string, string>, vars?: Partial<DrainpipeEnv>): Promise<string> {
  const response = await tusCall("POST", "/tus", { headers, vars });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.headers.get("Location")!;
}

/** A PATCH of `body` at `offset`, with its `Content-Length` as HTTP clients send it. */
function patch(path: string, offset: number, body: Uint8Array, headers: Record<string, string> = {}) {
  const length = String(body.byteLength);
  return tusCall("PATCH", path, {
    body,
    headers: { ...octets, "Upload-Offset": String(offset), "Content-Length": length, ...headers },
  });
}

/** Sends `bytes` to `path` in PATCHes cut at `cuts`; resolves with the last answer. */
async function patchAll(path: string, bytes: Uint8Array, cuts: number[]): Promise<Response> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  let offset = 0;
  let last: Response | undefined;
  for (const end of [...points.filter((point) => point > 0), bytes.byteLength]) {
    if (end <= offset && !(end === 0 && bytes.byteLength === 0)) continue;
    last = await patch(path, offset, bytes.subarray(offset, end));
    if (last.status !== 204) return last;
    expect(last.headers.get("Upload-Offset")).toBe(String(end));
    offset = end;
  }
  return last!;
}

/** Stores `bytes` as `name` with one POST; resolves with the answer. */
function post(name: string, bytes: Uint8Array) {
  return callWorker(new Request(`${TEST_ORIGIN}/files/${name}`, { method: "POST", headers: TEST_AUTH, body: bytes }));
}

async function manifest(name: string): Promise<Manifest> {
  const response = await tusCall("GET", `/files/${name}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Manifest;
}

async function content(name: string): Promise<string> {
  const response = await tusCall("GET", `/files/${name}/content`);
  expect(response.status).toBe(200);
  return response.text();
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), prefix)) found.push(object.key);
  return found;
}

let serial = 0;
/** A fresh file name. */
const fresh = (stem: string) => `${stem}-${Date.now().toString(36)}-${serial++}`;

/** Lines valid and not canonical: CRLF, leading zeros, blank lines, `-0`, no final line break. */
const validText = fc
  .array(
    fc.oneof(
      fc.integer({ min: -1e9, max: 1e9 }).map(String),
      fc
        .tuple(fc.constantFrom("", "-"), fc.integer({ min: 1, max: 40 }), fc.nat(9999))
        .map(([sign, zeros, value]) => `${sign}${"0".repeat(zeros)}${value}`),
      fc.constantFrom("", "-0", "9007199254740991", "-9007199254740991"),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .chain((lines) =>
    fc.tuple(fc.constantFrom("\n", "\r\n"), fc.boolean()).map(([end, last]) => lines.join(end) + (last ? end : "")),
  );

describe("tus 1.0 routes", () => {
  test("OPTIONS answers the capabilities without a token", async () => {
    const response = await callWorker(new Request(`${TEST_ORIGIN}/tus`, { method: "OPTIONS" }));
    expect(response.status).toBe(204);
    expect(response.headers.get("Tus-Version")).toBe("1.0.0");
    expect(response.headers.get("Tus-Extension")?.split(",")).toEqual([
      "creation",
      "creation-with-upload",
      "creation-defer-length",
      "termination",
      "checksum",
      "expiration",
      "concatenation",
    ]);
    expect(response.headers.get("Tus-Checksum-Algorithm")).toBe("sha1,sha256");
    expect(Number(response.headers.get("Tus-Max-Size"))).toBeGreaterThan(0);
  });

  test("a request without Tus-Resumable gets 412 with Tus-Version; without a token, 401", async () => {
    const missing = await callWorker(
      new Request(`${TEST_ORIGIN}/tus`, { method: "POST", headers: { ...TEST_AUTH, "Upload-Length": "3" } }),
    );
    expect(missing.status).toBe(412);
    expect(missing.headers.get("Tus-Version")).toBe("1.0.0");
    const anonymous = await callWorker(
      new Request(`${TEST_ORIGIN}/tus`, { method: "POST", headers: { ...tus, "Upload-Length": "3" } }),
    );
    expect(anonymous.status).toBe(401);
  });

  test("PATCHes cut anywhere store what one POST of the same bytes stores", async () => {
    await fc.assert(
      fc.asyncProperty(validText, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        const bytes = encoder.encode(text);
        const name = fresh("cut");
        const path = await create({ "Upload-Length": String(bytes.byteLength), "Upload-Metadata": metadata({ name }) });
        const last = await patchAll(path, bytes, cuts);
        expect(last.status, await last.clone().text()).toBe(204);
        expect((await post(`${name}-post`, bytes)).status).toBe(201);
        expect(await content(name)).toBe(await content(`${name}-post`));
        const [stored, posted] = [await manifest(name), await manifest(`${name}-post`)];
        expect(stored.totals.numbers).toBe(posted.totals.numbers);
        expect(stored.totals.bytes).toBe(posted.totals.bytes);
        expect(stored.source.kind === "segments" && stored.source.bytes).toBe(bytes.byteLength);
        expect(stored.sorted).toBe(posted.sorted);
        expect(stored.parts.length).toBeLessThanOrEqual(posted.parts.length + cuts.length);
        const head = await tusCall("HEAD", path);
        expect(head.headers.get("Upload-Offset")).toBe(String(bytes.byteLength));
      }),
      // An empty file (complete at its creation) and cuts at both ends come first, whatever the seed.
      {
        numRuns: 25,
        examples: [
          ["", []],
          ["7", [0, 1]],
        ],
      },
    );
  });

  test("a bad line is answered with the file's line, column and offset, as one POST answers it", async () => {
    const badText = validText.chain((text) =>
      fc
        .tuple(fc.nat(text.length), fc.constantFrom("x", " ", "+", "\r", "--", "99999999999999999"))
        .map(([at, bad]) => text.slice(0, at) + bad + text.slice(at)),
    );
    await fc.assert(
      fc.asyncProperty(badText, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        const bytes = encoder.encode(text);
        const posted = await post(fresh("bad-post"), bytes);
        if (posted.status === 201) return;
        expect(posted.status).toBe(400);
        const expected = (await posted.json()) as Record<string, unknown>;
        const name = fresh("bad");
        const path = await create({ "Upload-Length": String(bytes.byteLength), "Upload-Metadata": metadata({ name }) });
        const last = await patchAll(path, bytes, cuts);
        expect(last.status).toBe(400);
        const answer = (await last.json()) as Record<string, unknown>;
        expect(answer.error).toBe("invalid-number");
        expect([answer.line, answer.column, answer.offset, answer.reason]).toEqual([
          expected.line,
          expected.column,
          expected.offset,
          expected.reason,
        ]);
        expect(answer.detail).toContain(`line ${expected.line as number}, column ${expected.column as number}`);
        expect((await tusCall("HEAD", path)).status).toBe(404);
        expect(await keys(`${name}/`)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  test("partial uploads cut inside lines, concatenated by a final upload, store what one POST stores", async () => {
    await fc.assert(
      fc.asyncProperty(validText, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), async (text, cuts) => {
        const bytes = encoder.encode(text);
        const name = fresh("concat");
        const bounds = [...new Set([0, ...cuts.map((cut) => cut % (bytes.byteLength + 1)), bytes.byteLength])].sort(
          (a, b) => a - b,
        );
        // An empty file is one empty partial upload.
        if (bounds.length === 1) bounds.push(0);
        const partials: string[] = [];
        for (let i = 0; i + 1 < bounds.length; i++) {
          const slice = bytes.subarray(bounds[i], bounds[i + 1]);
          const path = await create({ "Upload-Length": String(slice.byteLength), "Upload-Concat": "partial" });
          if (slice.byteLength > 0) expect((await patchAll(path, slice, [slice.byteLength >> 1])).status).toBe(204);
          partials.push(path);
        }
        const final = await tusCall("POST", "/tus", {
          headers: { "Upload-Concat": `final;${partials.join(" ")}`, "Upload-Metadata": metadata({ filename: name }) },
        });
        expect(final.status, await final.clone().text()).toBe(201);
        expect(final.headers.get("Upload-Offset")).toBe(String(bytes.byteLength));
        expect((await post(`${name}-post`, bytes)).status).toBe(201);
        expect(await content(name)).toBe(await content(`${name}-post`));
        for (const path of partials) expect((await tusCall("HEAD", path)).status).toBe(404);
        const head = await tusCall("HEAD", final.headers.get("Location")!);
        expect(head.status).toBe(200);
        expect(head.headers.get("Upload-Length")).toBe(String(bytes.byteLength));
      }),
      // The empty file first, whatever the seed.
      { numRuns: 12, examples: [["", [0]]] },
    );
  });

  test("a wrong offset is 409; a checksum mismatch is 460 and stores nothing; sha1, sha256 checked", async () => {
    const name = fresh("checks");
    const bytes = encoder.encode("1\n2\n3\n");
    const path = await create({ "Upload-Length": String(bytes.byteLength), "Upload-Metadata": metadata({ name }) });
    const wrong = await patch(path, 2, bytes.subarray(0, 2));
    expect(wrong.status).toBe(409);
    expect(wrong.headers.get("Upload-Offset")).toBe("0");
    const digest = async (algorithm: string, data: Uint8Array) =>
      btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest(algorithm, data))));
    const mismatch = await patch(path, 0, bytes.subarray(0, 3), {
      "Upload-Checksum": `sha1 ${await digest("SHA-1", encoder.encode("no"))}`,
    });
    expect(mismatch.status).toBe(460);
    expect((await tusCall("HEAD", path)).headers.get("Upload-Offset")).toBe("0");
    expect(await keys(`${name}/`)).toEqual([]);
    const first = await patch(path, 0, bytes.subarray(0, 3), {
      "Upload-Checksum": `sha1 ${await digest("SHA-1", bytes.subarray(0, 3))}`,
    });
    expect(first.status).toBe(204);
    const rest = await patch(path, 3, bytes.subarray(3), {
      "Upload-Checksum": `sha256 ${await digest("SHA-256", bytes.subarray(3))}`,
    });
    expect(rest.status).toBe(204);
    expect(await content(name)).toBe("1\n2\n3\n");
    const unknown = await patch(path, 0, bytes, { "Upload-Checksum": "md5 AAAA" });
    expect(unknown.status).toBe(400);
  });

  test("an empty file completes at its creation; an empty PATCH at its end changes nothing", async () => {
    const name = fresh("empty");
    const path = await create({ "Upload-Length": "0", "Upload-Metadata": metadata({ name }) });
    expect(await content(name)).toBe("");
    const again = await patch(path, 0, new Uint8Array(0));
    expect(again.status).toBe(204);
    expect(again.headers.get("Upload-Offset")).toBe("0");
    const more = await patch(path, 0, encoder.encode("1\n"));
    expect(more.status).toBe(409);
    expect((await more.json()) as object).toMatchObject({ error: "upload-complete" });
  });

  test("a deferred length is given by the last PATCH; creation can carry the first bytes", async () => {
    const name = fresh("deferred");
    const created = await tusCall("POST", "/tus", {
      body: encoder.encode("10\n2"),
      headers: { ...octets, "Upload-Defer-Length": "1", "Upload-Metadata": metadata({ name }) },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("Upload-Offset")).toBe("4");
    const path = created.headers.get("Location")!;
    const head = await tusCall("HEAD", path);
    expect(head.headers.get("Upload-Defer-Length")).toBe("1");
    expect((await patch(path, 4, encoder.encode("0\n3"))).status).toBe(204);
    expect((await tusCall("GET", `/files/${name}`)).status).toBe(404);
    const last = await patch(path, 7, encoder.encode("0\n"), { "Upload-Length": "9" });
    expect(last.status).toBe(204);
    expect(await content(name)).toBe("10\n20\n30\n");
  });

  test("DELETE ends an upload and removes what it stored", async () => {
    const name = fresh("ended");
    const path = await create({ "Upload-Length": "100", "Upload-Metadata": metadata({ name }) });
    expect((await patch(path, 0, encoder.encode("1\n2\n3\n4"))).status).toBe(204);
    expect((await keys(`${name}/`)).length).toBeGreaterThan(0);
    expect((await tusCall("DELETE", path)).status).toBe(204);
    expect((await tusCall("HEAD", path)).status).toBe(404);
    expect((await patch(path, 7, encoder.encode("\n"))).status).toBe(404);
    expect(await keys(`${name}/`)).toEqual([]);
  });

  test("If-None-Match: * is refused at creation when the file exists, at publication when it appeared", async () => {
    const name = fresh("conditional");
    const condition = { "If-None-Match": "*", "Upload-Metadata": metadata({ name }) };
    const path = await create({ ...condition, "Upload-Length": "4" });
    expect((await post(name, encoder.encode("7\n"))).status).toBe(201);
    expect((await tusCall("POST", "/tus", { headers: { ...condition, "Upload-Length": "4" } })).status).toBe(412);
    const refused = await patch(path, 0, encoder.encode("1\n2\n"));
    expect(refused.status).toBe(412);
    expect(await content(name)).toBe("7\n");
    expect((await tusCall("HEAD", path)).status).toBe(404);
  });

  test("a PATCH larger than one request may carry is refused with 413, naming the chunk size", async () => {
    const name = fresh("big");
    const vars = { MAX_SEGMENT_BYTES: "1000" };
    const path = await create({ "Upload-Length": "5000", "Upload-Metadata": metadata({ name }) }, vars);
    const response = await tusCall("PATCH", path, {
      body: new Uint8Array(2000).fill(0x31),
      headers: { ...octets, "Upload-Offset": "0" },
      vars,
    });
    const body = (await response.json()) as { detail: string; chunkSize: number };
    expect(response.status, JSON.stringify(body)).toBe(413);
    expect(body.chunkSize).toBe(1000);
    expect(body.detail).toContain("chunkSize: 1000");
    expect((await tusCall("HEAD", path)).headers.get("Upload-Offset")).toBe("0");
  });

  test("chunks so small that the file would pass MAX_PARTS are refused at the first PATCH", async () => {
    const name = fresh("tiny-chunks");
    const path = await create({
      "Upload-Length": "3000000",
      "Upload-Metadata": metadata({ name, maxPartBytes: "1024" }),
    });
    const chunk = encoder.encode(`${"1\n".repeat(249)}2\n`);
    const response = await patch(path, 0, chunk);
    const body = (await response.json()) as { error: string; chunkSize: number };
    expect(response.status).toBe(413);
    expect(body.error).toBe("too-many-parts");
    expect(body.chunkSize).toBeGreaterThan(chunk.byteLength);
    expect(Math.ceil(3_000_000 / body.chunkSize) * Math.ceil(body.chunkSize / 1024)).toBeLessThanOrEqual(4000);
    expect((await tusCall("HEAD", path)).headers.get("Upload-Offset")).toBe("0");
  });

  test("a PATCH counts its subrequests: begin, one put per part, accept", async () => {
    const name = fresh("metered");
    const path = await create({ "Upload-Length": "12", "Upload-Metadata": metadata({ name }) });
    const budget = new RequestBudget(50);
    const response = await callMetered({
      method: "PATCH",
      path,
      headers: { ...tus, ...octets, "Upload-Offset": "0" },
      body: encoder.encode("1\n2\n3"),
      vars: { PLAN: "free" },
      bucket: budget,
      coordinator: budget,
    });
    expect(response.status).toBe(204);
    expect(budget.used).toBe(3);
    const partial = await create({ "Upload-Length": "4", "Upload-Concat": "partial" });
    const pieceBudget = new RequestBudget(50);
    const piece = await callMetered({
      method: "PATCH",
      path: partial,
      headers: { ...tus, ...octets, "Upload-Offset": "0" },
      body: encoder.encode("4\n5\n"),
      vars: { PLAN: "free" },
      bucket: pieceBudget,
      coordinator: pieceBudget,
    });
    expect(piece.status).toBe(204);
    expect(pieceBudget.used).toBe(3);
  });

  test("an abandoned upload is removed by its coordinator's alarm once it expires", async () => {
    const name = fresh("abandoned");
    const vars = { UPLOAD_TTL: "1" };
    const path = await create({ "Upload-Length": "100", "Upload-Metadata": metadata({ name }) }, vars);
    expect((await patch(path, 0, encoder.encode("1\n2\n3"))).status).toBe(204);
    expect((await keys(`${name}/`)).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // The alarm may have run by itself already (local workerd runs alarms); else run it now.
    await runDurableObjectAlarm(env.COORDINATOR.getByName(name));
    expect(await keys(`${name}/`)).toEqual([]);
    expect((await tusCall("HEAD", path)).status).toBe(404);
  });

  test("the sweep keeps an open partial upload's pieces and removes a dead one's", async () => {
    const path = await create({ "Upload-Length": "10", "Upload-Concat": "partial" });
    expect((await patch(path, 0, encoder.encode("12\n3"))).status).toBe(204);
    const owner = `_tus.${path.slice(path.lastIndexOf("/") + 1)}`;
    const pieces = await keys(`${owner}/`);
    expect(pieces.length).toBe(1);
    const orphan = "_tus.0000000000deadbeef/uploads/x/piece";
    await env.BUCKET.put(orphan, "9\n");
    let cursor: string | null = null;
    do {
      const swept = await tusCall("POST", `/sweep${cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`}`);
      expect(swept.status).toBe(200);
      cursor = ((await swept.json()) as { cursor: string | null }).cursor;
    } while (cursor !== null);
    expect(await keys(`${owner}/`)).toEqual(pieces);
    expect(await keys("_tus.0000000000deadbeef/")).toEqual([]);
  });

  test("a PATCH that finishes after a later one began is refused, and the later one stands", async () => {
    const name = fresh("superseded");
    const path = await create({ "Upload-Length": "4", "Upload-Metadata": metadata({ name }) });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode("8\n"));
        await held;
        controller.enqueue(encoder.encode("9\n"));
        controller.close();
      },
    });
    const first = tusCall("PATCH", path, { body: slow, headers: { ...octets, "Upload-Offset": "0" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await patch(path, 0, encoder.encode("1\n2\n"))).status).toBe(204);
    release();
    expect((await first).status).toBe(409);
    expect(await content(name)).toBe("1\n2\n");
  });

  test("CORS: an allowed origin gets the preflight and the exposed headers; another gets none", async () => {
    const vars = { CORS_ORIGINS: "http://app.test" };
    const preflight = (from: string) =>
      callWorker(
        new Request(`${TEST_ORIGIN}/tus`, {
          method: "OPTIONS",
          headers: {
            Origin: from,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "upload-length,tus-resumable,authorization",
          },
        }),
        { ...env, ...vars } as DrainpipeEnv,
      );
    const allowed = await preflight("http://app.test");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("http://app.test");
    expect(allowed.headers.get("Access-Control-Allow-Headers")).toContain("Upload-Length");
    const exposed = allowed.headers.get("Access-Control-Expose-Headers")?.split(", ") ?? [];
    for (const header of ["Upload-Offset", "Location", "Upload-Length", "Tus-Version", "Tus-Resumable"]) {
      expect(exposed).toContain(header);
    }
    expect((await preflight("http://evil.test")).headers.get("Access-Control-Allow-Origin")).toBeNull();
    const created = await tusCall("POST", "/tus", {
      headers: { Origin: "http://app.test", "Upload-Length": "2", "Upload-Concat": "partial" },
      vars,
    });
    expect(created.headers.get("Access-Control-Allow-Origin")).toBe("http://app.test");
    expect(created.headers.get("Access-Control-Expose-Headers")).toContain("Location");
  });
});
