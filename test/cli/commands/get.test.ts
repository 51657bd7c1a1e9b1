import type { ChildProcess } from "node:child_process";
import { access, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DownloadResult } from "../../../src/cli/commands/get.ts";
import { resumeRecordPath } from "../../../src/cli/resume-record.ts";
import type { Manifest } from "../../../src/files/manifest.ts";
import { encodeNumbers } from "../../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../../support/split-contract.ts";
import { runCli } from "../cli-runner.ts";
import { listenOnLoopback } from "../loopback.ts";
import { useRemoteWorker } from "../remote-worker.ts";

// drainpipe get over real HTTP against a worker in local workerd: parts fetched in parallel, and a download killed
// half way through and resumed.
const fixture = useRemoteWorker("drainpipe-get-");

/** Stores `bytes` as `name` in parts of at most 1 KiB; resolves the manifest. */
async function store(name: string, bytes: Uint8Array): Promise<Manifest> {
  const { url, token } = fixture.worker;
  const response = await fetch(`${url}/files/${name}?maxPartBytes=1024`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

/**
 * A proxy to the worker that passes every request on, but of a content read's body sends only the first half and
 * then nothing more, holding the connection open: a download that stalls at 50 %.
 */
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  proxy = createServer(async (request, response) => {
    const headers = { Authorization: request.headers.authorization ?? "" };
    const answer = await fetch(new URL(request.url!, fixture.worker.url), { method: request.method, headers });
    const passed = ["content-type", "content-length", "etag", "last-modified", "accept-ranges"];
    const kept = passed.flatMap((name) => (answer.headers.has(name) ? [[name, answer.headers.get(name)!]] : []));
    response.writeHead(answer.status, Object.fromEntries(kept));
    const body = new Uint8Array(await answer.arrayBuffer());
    if (!request.url!.endsWith("/content")) return void response.end(body);
    response.write(body.subarray(0, Math.floor(body.length / 2)));
  });
  proxyUrl = await listenOnLoopback(proxy);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

function get(args: string[], url = fixture.worker.url, onStart?: (child: ChildProcess) => void) {
  return runCli(["get", ...args, "--url", url, "--token", fixture.worker.token], {
    cwd: fixture.directory,
    ...(onStart ? { onStart } : {}),
  });
}

/** Runs `get name -o output` through the stalling proxy and kills it once half the content is on disk. */
async function killedHalfWay(name: string, output: string, size: number): Promise<void> {
  let child: ChildProcess | undefined;
  let ended = false;
  const run = get([name, "-o", output], proxyUrl, (started) => {
    child = started;
  }).finally(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`Cannot kill the download half way: it ended (${JSON.stringify(await run)})`);
    const written = await stat(output).then(
      (info) => info.size,
      () => 0,
    );
    if (written === Math.floor(size / 2)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child!.kill("SIGKILL");
  expect((await run).code).toBeNull();
}

describe("drainpipe get", () => {
  test("--parallel fetches the parts at once into their offsets: the same bytes", async () => {
    const bytes = encodeNumbers(sampleNumbers(20_000, 21));
    const manifest = await store("parallel", bytes);
    expect(manifest.parts.length).toBeGreaterThan(50);
    const output = join(fixture.directory, "parallel.txt");
    const run = await get(["parallel", "-o", output, "--parallel", "6", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: "parallel", bytes: bytes.length, resumedFrom: 0 });
    expect(new Uint8Array(await readFile(output))).toEqual(bytes);
  });

  test("a download killed at 50 % and resumed gives identical bytes, fetching only the rest", async () => {
    const bytes = encodeNumbers(sampleNumbers(30_000, 22));
    await store("killed", bytes);
    const output = join(fixture.directory, "killed.txt");
    await killedHalfWay("killed", output, bytes.length);
    await access(resumeRecordPath(output));
    const run = await get(["killed", "-o", output, "--resume", "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as DownloadResult;
    expect(result).toMatchObject({ bytes: bytes.length, resumedFrom: Math.floor(bytes.length / 2) });
    expect(new Uint8Array(await readFile(output))).toEqual(bytes);
    await expect(access(resumeRecordPath(output))).rejects.toThrow(/ENOENT/);
    const again = await get(["killed", "-o", output, "--resume", "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ bytes: bytes.length, resumedFrom: 0 });
  });

  test("a file replaced since the download was killed is fetched whole again", async () => {
    const first = encodeNumbers(sampleNumbers(30_000, 23));
    await store("replaced", first);
    const output = join(fixture.directory, "replaced.txt");
    await killedHalfWay("replaced", output, first.length);
    const second = encodeNumbers(sampleNumbers(25_000, 24));
    await store("replaced", second);
    const run = await get(["replaced", "-o", output, "--resume", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ bytes: second.length, resumedFrom: 0 });
    expect(new Uint8Array(await readFile(output))).toEqual(second);
  });

  test("a partial file without a record of the same name is fetched whole", async () => {
    const bytes = encodeNumbers(sampleNumbers(1_000, 25));
    await store("unrecorded", bytes);
    const output = join(fixture.directory, "unrecorded.txt");
    await writeFile(output, "garbage");
    await writeFile(resumeRecordPath(output), JSON.stringify({ name: "another", etag: '"x"' }));
    const run = await get(["unrecorded", "-o", output, "--resume", "--json"]);
    expect(JSON.parse(run.stdout)).toMatchObject({ bytes: bytes.length, resumedFrom: 0 });
    expect(new Uint8Array(await readFile(output))).toEqual(bytes);
  });

  test("--resume and --parallel need -o, and do not go together", async () => {
    for (const args of [
      ["x", "--resume"],
      ["x", "--parallel", "2"],
      ["x", "-o", "y", "--resume", "--parallel", "2"],
    ]) {
      const run = await get(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^drainpipe: Cannot use --(resume|parallel)/);
    }
  });
});
