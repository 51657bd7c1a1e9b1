import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getPlatformProxy } from "wrangler";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../support/split-contract.ts";

let stateDir: string;
let worker: EmbeddedWorker;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-abort-"));
  worker = await startEmbeddedWorker({ stateDir });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

/** Sends a POST by hand over a socket: the headers, then `body`, then drops the connection. */
function postAndHangUp(path: string, headers: Record<string, string>, body: Buffer): Promise<string> {
  const url = new URL(worker.url);
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect(Number(url.port), url.hostname, () => {
      const head = Object.entries({ Host: url.host, Authorization: `Bearer ${worker.token}`, ...headers })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      socket.write(body, () => setTimeout(() => socket.destroy(), 300));
    });
    socket.on("data", (data) => {
      received += data.toString();
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
}

function chunked(bytes: Uint8Array, size: number): Buffer {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    const piece = bytes.subarray(offset, offset + size);
    pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), Buffer.from(piece), Buffer.from("\r\n"));
  }
  return Buffer.concat(pieces);
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${worker.url}${path}`, { ...init, headers: { Authorization: `Bearer ${worker.token}` } });
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

describe("a client that hangs up mid-body (real HTTP to local workerd)", () => {
  const previous = encodeNumbers(sampleNumbers(20_000, 11));
  const next = encodeNumbers(sampleNumbers(400_000, 12));
  const previousBody = new Uint8Array(previous);

  test("with a chunked body: no new version, the previous one intact", { timeout: 60_000 }, async () => {
    expect((await api("/files/hangup?maxPartBytes=65536", { method: "POST", body: previousBody })).status).toBe(201);
    const partial = chunked(next.subarray(0, next.length >> 1), 65_536);
    await postAndHangUp("/files/hangup?maxPartBytes=65536", { "Transfer-Encoding": "chunked" }, partial);
    await settle();
    const content = await api("/files/hangup/content");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(previous);
  });

  test("with a Content-Length the body never reaches: no new version, the previous one intact", {
    timeout: 60_000,
  }, async () => {
    await postAndHangUp(
      "/files/hangup?maxPartBytes=65536",
      { "Content-Length": String(next.length) },
      Buffer.from(next.subarray(0, next.length >> 1)),
    );
    await settle();
    const content = await api("/files/hangup/content");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(previous);
  });

  test("leaves no orphan objects in the bucket", { timeout: 60_000 }, async () => {
    const manifest = (await (await api("/files/hangup")).json()) as { parts: { key: string }[] };
    await worker.stop();
    const proxy = await getPlatformProxy<{
      BUCKET: { list(options: { prefix: string }): Promise<{ objects: { key: string }[] }> };
    }>({ configPath: "wrangler.toml", persist: { path: join(stateDir, "v3") } });
    try {
      const listed = await proxy.env.BUCKET.list({ prefix: "hangup/" });
      expect(listed.objects.map((object) => object.key).sort()).toEqual(
        ["hangup/manifest.json", ...manifest.parts.map((part) => part.key)].sort(),
      );
    } finally {
      await proxy.dispose();
      worker = await startEmbeddedWorker({ stateDir });
    }
  });
});
