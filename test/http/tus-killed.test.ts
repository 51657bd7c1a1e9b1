import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// A tus upload whose workerd process is killed in the middle of a PATCH, over real HTTP to local workerd: after a
// restart, HEAD answers an offset no later than what was stored, the dead PATCH's parts are removed by the
// coordinator's alarm when its lease ends, and a new client resumes from HEAD's offset to the same file a POST stores.

/** A lease short enough that the dead PATCH's parts are reclaimed within the test. */
const LEASE_SECONDS = 5;

let stateDir: string;
let worker: EmbeddedWorker;

const start = () => startEmbeddedWorker({ stateDir, vars: { LEASE_SECONDS: String(LEASE_SECONDS) } });

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-tus-killed-"));
  worker = await start();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(path, worker.url), {
    ...init,
    headers: {
      Authorization: `Bearer ${worker.token}`,
      "Tus-Resumable": "1.0.0",
      ...(init.headers as Record<string, string>),
    },
  });
}

/** The PATCHes of `name`'s tus uploads in flight, as its uploads listing counts them. */
async function writing(name: string): Promise<number> {
  const listing = (await (await api(`/files/${name}/uploads`)).json()) as { sessions: { writing: number }[] };
  return listing.sessions.reduce((sum, session) => sum + session.writing, 0);
}

/**
 * Sends a PATCH of `bytes` at `offset` that writes its first half and then nothing more (the process it talks to is
 * killed meanwhile); resolves once the first half is written, with a promise of the request's end (wrapped, so that
 * resolving does not wait for it).
 */
function stalledPatch(path: string, offset: number, bytes: Uint8Array): Promise<{ ended: Promise<void> }> {
  return new Promise((written) => {
    const request = httpRequest(new URL(path, worker.url), {
      method: "PATCH",
      headers: {
        Authorization: `Bearer ${worker.token}`,
        "Tus-Resumable": "1.0.0",
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": String(offset),
        "Content-Length": String(bytes.byteLength),
      },
    });
    const ended = new Promise<void>((resolve) => {
      request.on("error", () => resolve());
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve());
      });
    });
    request.write(bytes.subarray(0, bytes.byteLength >> 1), () => written({ ended }));
  });
}

test("workerd killed mid-PATCH: HEAD answers the stored offset, the dead PATCH's parts go, the upload resumes", {
  timeout: 180_000,
}, async () => {
  const text = new TextDecoder()
    .decode(encodeNumbers(sampleNumbers(600_000, 41)))
    .replace(/\n(1\d{3})\n/g, "\n00$1\r\n");
  const bytes = new TextEncoder().encode(text);
  const name = "killed-tus";
  const created = await api("/tus", {
    method: "POST",
    headers: { "Upload-Length": String(bytes.byteLength), "Upload-Metadata": `name ${btoa(name)}` },
  });
  expect(created.status).toBe(201);
  const path = created.headers.get("Location")!;
  // A first PATCH that ends inside a line, stored whole.
  const first = 1_000_003;
  const stored = await api(path, {
    method: "PATCH",
    headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
    body: bytes.subarray(0, first),
  });
  expect(stored.status).toBe(204);
  // A second PATCH of 1 MiB parts' worth, half sent, then workerd is killed.
  const { ended } = await stalledPatch(path, first, bytes.subarray(first, first + 3_000_000));
  await vi.waitFor(async () => expect(await writing(name)).toBe(1), { timeout: 60_000, interval: 50 });
  await worker.stop();
  await ended;
  worker = await start();
  const head = await api(path, { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(Number(head.headers.get("Upload-Offset"))).toBeLessThanOrEqual(first);
  // The dead PATCH's attempt ends with its lease; its coordinator's alarm removes what it wrote.
  await vi.waitFor(async () => expect(await writing(name)).toBe(0), { timeout: 60_000, interval: 250 });
  // A new client resumes from HEAD's offset.
  const resumedFrom = Number(head.headers.get("Upload-Offset"));
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(Buffer.from(bytes), {
      endpoint: new URL("/tus", worker.url).href,
      uploadUrl: new URL(path, worker.url).href,
      headers: { Authorization: `Bearer ${worker.token}` },
      chunkSize: 2_000_000,
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
  expect(resumedFrom).toBeGreaterThan(0);
  const posted = await api(`/files/${name}-post`, { method: "POST", body: bytes });
  expect(posted.status).toBe(201);
  const [tusContent, postContent] = await Promise.all([
    api(`/files/${name}/content`).then((response) => response.arrayBuffer()),
    api(`/files/${name}-post/content`).then((response) => response.arrayBuffer()),
  ]);
  expect(Buffer.from(tusContent).equals(Buffer.from(postContent))).toBe(true);
});
