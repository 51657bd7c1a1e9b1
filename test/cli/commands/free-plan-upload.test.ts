import { readFile, writeFile } from "node:fs/promises";
import { createServer, request as forward, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Manifest } from "../../../src/files/manifest.ts";
import { encodeNumbers } from "../../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../../support/split-contract.ts";
import { CLI_COMMAND, runCli, runShell } from "../cli-runner.ts";
import { listenOnLoopback } from "../loopback.ts";
import { useRemoteWorker } from "../remote-worker.ts";

// The CLI against a worker on the Free plan (50 subrequests and 10 ms of CPU per request), configured as
// docs/limits-and-costs.md says: PLAN and MAX_SEGMENT_BYTES, nothing else. Every request the CLI sends fits, with no
// flags: a file larger than MAX_SEGMENT_BYTES goes as a session in segments under it, a file whose parts do not fit
// one request as a session sized by the worker, and both read back whole.
const MAX_SEGMENT_BYTES = 3_000_000;
const fixture = useRemoteWorker("drainpipe-free-plan-", { PLAN: "free", MAX_SEGMENT_BYTES: String(MAX_SEGMENT_BYTES) });
const remote = (...args: string[]) => fixture.remote(args);

/** A request the CLI sent through the recording proxy: its method, path and the bytes of its body. */
interface Sent {
  method: string;
  path: string;
  bytes: number;
}

/**
 * A proxy in front of the worker that passes every request and answer on as they stream, recording each request,
 * except that it answers `GET /limits` with `404` when `olderWorker` is set: a worker from before that route.
 */
let proxy: Server;
let proxyUrl: string;
const sent: Sent[] = [];
let olderWorker = false;

beforeAll(async () => {
  proxy = createServer((incoming, outgoing) => {
    const record: Sent = { method: incoming.method!, path: incoming.url!, bytes: 0 };
    sent.push(record);
    if (olderWorker && incoming.url === "/limits") {
      incoming.resume();
      outgoing.writeHead(404, { "Content-Type": "application/json" });
      return void outgoing.end(JSON.stringify({ error: "not-found", detail: "No route for GET /limits" }));
    }
    incoming.on("data", (chunk: Buffer) => {
      record.bytes += chunk.byteLength;
    });
    const upstream = forward(
      new URL(incoming.url!, fixture.worker.url),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", (error) => outgoing.destroy(error));
    incoming.pipe(upstream);
  });
  proxyUrl = await listenOnLoopback(proxy);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

/** Runs the CLI through the recording proxy; resolves its run and the requests it sent. */
async function throughProxy(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; requests: Sent[] }> {
  sent.length = 0;
  const run = await runCli([...args, "--url", proxyUrl, "--token", fixture.worker.token], { cwd: fixture.directory });
  return { ...run, requests: [...sent] };
}

/** Pipes `file` into `drainpipe upload - ...args` through the recording proxy; resolves its run and requests. */
async function pipedThroughProxy(
  file: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; requests: Sent[] }> {
  sent.length = 0;
  const connection = `--url ${proxyUrl} --token ${fixture.worker.token}`;
  const command = `cat '${file}' | ${CLI_COMMAND} upload - ${args.join(" ")} ${connection}`;
  const run = await runShell(command, { cwd: fixture.directory });
  return { ...run, requests: [...sent] };
}

/** Writes a file of numbers larger than MAX_SEGMENT_BYTES (about 10 MB) and returns its path and bytes. */
async function largeFile(name: string): Promise<{ path: string; bytes: Uint8Array }> {
  const bytes = new Uint8Array(encodeNumbers(sampleNumbers(1_500_000, 31)));
  expect(bytes.byteLength).toBeGreaterThan(3 * MAX_SEGMENT_BYTES);
  const path = join(fixture.directory, name);
  await writeFile(path, bytes);
  return { path, bytes };
}

/** The requests' methods and routes, with upload ids blanked. */
function routesOf(requests: readonly Sent[]): string[] {
  return requests.map(({ method, path: route }) => `${method} ${route.replace(/\/uploads\/[^/]+/, "/uploads/ID")}`);
}

/** 30,000 numbers (~200 parts of 1 KiB): more parts than one request may store on the Free plan. */
const SMALL_PARTS_TEXT = Array.from({ length: 30_000 }, (_, i) => `${i * 7919}\n`).join("");

/**
 * Checks that `upload` (the CLI's `--json` run with `--max-part-bytes 1024`) stored {@link SMALL_PARTS_TEXT} as
 * `name` in a session whose segments each fit 50 subrequests, and that it reads back whole.
 */
async function expectSmallPartsSession(upload: { stdout: string }, name: string): Promise<void> {
  const result = JSON.parse(upload.stdout) as { manifest: Manifest; segments: number };
  expect(result.manifest.parts.length).toBeGreaterThan(150);
  // Every segment fits 50 subrequests: about 41 parts of 1 KiB each.
  expect(result.segments).toBeGreaterThanOrEqual(Math.ceil(result.manifest.parts.length / 42));
  const out = join(fixture.directory, `${name}.out`);
  const get = await remote("get", name, "-o", out);
  expect(get.code, get.stderr).toBe(0);
  expect(await readFile(out, "utf8")).toBe(SMALL_PARTS_TEXT);
}

describe("uploads on the Free plan", () => {
  test("a file over MAX_SEGMENT_BYTES goes, with no flags, as segments each within it", {
    timeout: 180_000,
  }, async () => {
    const { path, bytes } = await largeFile("large.txt");
    const upload = await throughProxy(["upload", path, "--json"]);
    expect(upload.code, upload.stderr).toBe(0);
    const result = JSON.parse(upload.stdout) as { manifest: Manifest; segments: number; bytes: number };
    expect(result.manifest.totals.bytes).toBe(bytes.byteLength);

    const requests = routesOf(upload.requests);
    const segments = upload.requests.filter((request) => request.method === "PUT");
    // One look at the limits, one session, its segments, the completion: no single POST of the file.
    expect(requests).toEqual([
      "GET /limits",
      "POST /files/large.txt/uploads",
      ...segments.map(() => expect.stringMatching(/^PUT \/files\/large\.txt\/uploads\/ID\/segments\/\d+$/)),
      "POST /files/large.txt/uploads/ID/complete",
    ]);
    expect(segments.length).toBe(result.segments);
    expect(segments.length).toBeGreaterThanOrEqual(Math.ceil(bytes.byteLength / MAX_SEGMENT_BYTES));
    for (const segment of segments) expect(segment.bytes).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(segments.reduce((sum, segment) => sum + segment.bytes, 0)).toBe(bytes.byteLength);

    const out = join(fixture.directory, "large.out");
    const get = await remote("get", "large.txt", "-o", out);
    expect(get.code, get.stderr).toBe(0);
    expect(new Uint8Array(await readFile(out))).toEqual(bytes);
  });

  test("standard input over MAX_SEGMENT_BYTES goes, with no flags, as segments each within it", {
    timeout: 180_000,
  }, async () => {
    const { path, bytes } = await largeFile("piped-large.txt");
    const upload = await pipedThroughProxy(path, ["--name", "piped-large", "--json"]);
    expect(upload.code, upload.stderr).toBe(0);
    const result = JSON.parse(upload.stdout) as { manifest: Manifest; segments: number; bytes: number };
    expect(result.manifest.totals.bytes).toBe(bytes.byteLength);
    const segments = upload.requests.filter((request) => request.method === "PUT");
    expect(routesOf(upload.requests)).toEqual([
      "GET /limits",
      "POST /files/piped-large/uploads",
      ...segments.map(() => expect.stringMatching(/^PUT \/files\/piped-large\/uploads\/ID\/segments\/\d+$/)),
      "POST /files/piped-large/uploads/ID/complete",
    ]);
    expect(segments.length).toBe(result.segments);
    for (const segment of segments) expect(segment.bytes).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(segments.reduce((sum, segment) => sum + segment.bytes, 0)).toBe(bytes.byteLength);
    expect((await remote("verify", "piped-large", path)).code).toBe(0);
  });

  test("standard input within MAX_SEGMENT_BYTES goes as one POST of its size", { timeout: 60_000 }, async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `${i * 7919}\n`).join("");
    const path = join(fixture.directory, "piped-small.txt");
    await writeFile(path, text);
    const upload = await pipedThroughProxy(path, ["--name", "piped-small", "--json"]);
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.requests.map(({ method, path: route, bytes }) => [method, route, bytes])).toEqual([
      ["GET", "/limits", 0],
      ["POST", "/files/piped-small", text.length],
    ]);
  });

  test("a file within MAX_SEGMENT_BYTES goes as one POST", { timeout: 60_000 }, async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `${i * 7919}\n`).join("");
    const path = join(fixture.directory, "small.txt");
    await writeFile(path, text);
    const upload = await throughProxy(["upload", path, "--json"]);
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.requests.map(({ method, path: route, bytes }) => [method, route, bytes])).toEqual([
      ["GET", "/limits", 0],
      ["POST", "/files/small.txt", text.length],
    ]);
  });

  test("against a worker without GET /limits, the CLI keeps its old threshold: one POST", {
    timeout: 120_000,
  }, async () => {
    const { path, bytes } = await largeFile("older.txt");
    olderWorker = true;
    try {
      const upload = await throughProxy(["upload", path, "--json"]);
      expect(upload.code, upload.stderr).toBe(0);
      expect(upload.requests.map(({ method, path: route, bytes: sentBytes }) => [method, route, sentBytes])).toEqual([
        ["GET", "/limits", 0],
        ["POST", "/files/older.txt", bytes.byteLength],
      ]);
    } finally {
      olderWorker = false;
    }
  });

  test("a file of ~200 parts goes as a session sized by the worker and reads back whole", {
    timeout: 180_000,
  }, async () => {
    const file = join(fixture.directory, "small-parts.txt");
    await writeFile(file, SMALL_PARTS_TEXT);
    const upload = await remote("upload", file, "--max-part-bytes", "1024", "--json");
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toContain("sending it as an upload session instead");
    await expectSmallPartsSession(upload, "small-parts.txt");
  });

  test("standard input of ~200 parts, refused as one POST, goes again as a session and reads back whole", {
    timeout: 180_000,
  }, async () => {
    const file = join(fixture.directory, "small-parts-piped.txt");
    await writeFile(file, SMALL_PARTS_TEXT);
    const upload = await pipedThroughProxy(file, ["--name", "piped-parts.txt", "--max-part-bytes", "1024", "--json"]);
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toContain("cannot store standard input in one request");
    expect(upload.stderr).toContain("sending it as an upload session instead");
    const routes = routesOf(upload.requests);
    expect(routes.slice(0, 3)).toEqual([
      "GET /limits",
      "POST /files/piped-parts.txt?maxPartBytes=1024",
      "POST /files/piped-parts.txt/uploads?maxPartBytes=1024",
    ]);
    expect(routes.at(-1)).toBe("POST /files/piped-parts.txt/uploads/ID/complete");
    await expectSmallPartsSession(upload, "piped-parts.txt");
  });
});
