import type * as tus from "tus-js-client";
import { describe, expect, test } from "vitest";
import { asBody, expectStoredLikePost, head, primesText, startUpload, upload, useTusWorker } from "./tus-support.ts";

// The worker's settings as tus clients meet them: a small MAX_SEGMENT_BYTES (the largest PATCH body) and
// CORS_ORIGINS (what a browser's tus client needs).
const MAX_SEGMENT_BYTES = 100_000;
const ORIGIN = "http://example.test";
const worker = useTusWorker("drainpipe-tus-settings-", {
  MAX_SEGMENT_BYTES: String(MAX_SEGMENT_BYTES),
  CORS_ORIGINS: ORIGIN,
});

/** The comma-separated members of header `name`, lower-cased. */
function members(headers: Headers, name: string): string[] {
  return (headers.get(name) ?? "")
    .split(",")
    .map((member) => member.trim().toLowerCase())
    .filter((member) => member !== "");
}

/** Creates an upload of `length` bytes for the file `name`; resolves with its URL. */
async function create(length: number, name: string): Promise<string> {
  const response = await worker.tus("/tus", {
    method: "POST",
    headers: { "Upload-Length": String(length), "Upload-Metadata": `name ${Buffer.from(name).toString("base64")}` },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return new URL(response.headers.get("Location")!, worker.url).href;
}

describe("the largest PATCH (MAX_SEGMENT_BYTES)", () => {
  test("GET /limits answers it as maxSegmentBytes", async () => {
    const limits = (await (await worker.api("/limits")).json()) as { maxSegmentBytes: number };
    expect(limits.maxSegmentBytes).toBe(MAX_SEGMENT_BYTES);
  });

  test("a larger PATCH gets 413 naming a chunkSize that fits, and stores nothing", async () => {
    const bytes = await primesText(30_000);
    const url = await create(bytes.length, "too-big-patch");
    const response = await worker.tus(url, {
      method: "PATCH",
      headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      body: asBody(bytes.subarray(0, 150_000)),
    });
    const text = await response.text();
    expect(response.status, text).toBe(413);
    expect(response.headers.get("Tus-Resumable")).toBe("1.0.0");
    const { error, detail } = JSON.parse(text) as { error: string; detail: string };
    expect(error).toBe("patch-too-large");
    expect(detail).toMatch(/chunkSize/);
    const named = [...detail.matchAll(/\d[\d,_]*/g)].map((match) => Number(match[0].replace(/[,_]/g, "")));
    expect(
      named.some((size) => size > 0 && size <= MAX_SEGMENT_BYTES),
      detail,
    ).toBe(true);
    expect((await head(worker, url)).offset).toBe(0);
  });

  test("tus-js-client without a chunkSize fails with that 413; with chunkSize maxSegmentBytes it does", async () => {
    const bytes = await primesText(40_000);
    const name = "limited";
    const run = startUpload(worker, bytes, { metadata: { name } });
    const error = await run.done.then(
      () => expect.fail("one PATCH of the whole file must be refused"),
      (reason: unknown) => reason as tus.DetailedError,
    );
    expect(error.originalResponse?.getStatus()).toBe(413);
    expect(error.message).toMatch(/chunkSize/);
    const { requests } = await upload(worker, bytes, { metadata: { name }, chunkSize: MAX_SEGMENT_BYTES });
    const patches = requests.filter((request) => request.method === "PATCH");
    expect(patches).toHaveLength(Math.ceil(bytes.length / MAX_SEGMENT_BYTES));
    await expectStoredLikePost(worker, name, bytes, { cuts: patches.length - 1 });
  });
});

describe("CORS (CORS_ORIGINS)", () => {
  const preflight = (origin: string, path = "/tus") =>
    fetch(new URL(path, worker.url), {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "authorization,content-type,tus-resumable,upload-offset,upload-checksum",
      },
    });
  const exposed = [
    "upload-offset",
    "location",
    "upload-length",
    "tus-version",
    "tus-resumable",
    "tus-max-size",
    "tus-extension",
    "tus-checksum-algorithm",
    "upload-metadata",
    "upload-defer-length",
    "upload-concat",
    "upload-expires",
  ];

  test("a preflight from an allowed origin is allowed, with the tus headers exposed", async () => {
    for (const path of ["/tus", "/tus/abcdefgh1234~some-file"]) {
      const response = await preflight(ORIGIN, path);
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
      expect(members(response.headers, "Access-Control-Allow-Methods")).toEqual(
        expect.arrayContaining(["post", "patch", "head", "delete"]),
      );
      const allowed = members(response.headers, "Access-Control-Allow-Headers");
      if (!allowed.includes("*")) {
        expect(allowed).toEqual(
          expect.arrayContaining([
            "authorization",
            "content-type",
            "tus-resumable",
            "upload-offset",
            "upload-checksum",
          ]),
        );
      }
      expect(members(response.headers, "Access-Control-Expose-Headers")).toEqual(expect.arrayContaining(exposed));
    }
  });

  test("the responses to an allowed origin allow it and expose the tus headers", async () => {
    const create = await worker.tus("/tus", {
      method: "POST",
      headers: { Origin: ORIGIN, "Upload-Length": "4", "Upload-Metadata": `name ${btoa("cors")}` },
    });
    expect(create.status).toBe(201);
    expect(create.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    expect(members(create.headers, "Access-Control-Expose-Headers")).toEqual(expect.arrayContaining(exposed));
    const url = new URL(create.headers.get("Location")!, worker.url).href;
    const patched = await worker.tus(url, {
      method: "PATCH",
      headers: { Origin: ORIGIN, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      body: "1\n2\n",
    });
    expect(patched.status).toBe(204);
    expect(patched.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    expect(members(patched.headers, "Access-Control-Expose-Headers")).toEqual(
      expect.arrayContaining(["upload-offset", "location"]),
    );
  });

  test("another origin gets no CORS headers", async () => {
    const response = await preflight("http://elsewhere.test");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(response.headers.get("Access-Control-Expose-Headers")).toBeNull();
    const create = await worker.tus("/tus", {
      method: "POST",
      headers: { Origin: "http://elsewhere.test", "Upload-Length": "2", "Upload-Metadata": `name ${btoa("other")}` },
    });
    expect(create.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(create.headers.get("Access-Control-Expose-Headers")).toBeNull();
  });
});
