import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { parseManifest, versionKeys } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../support/split-contract.ts";
import { localBucketKeys } from "./local-bucket.ts";

// Faults over real HTTP to local workerd, through the same dev proxy as `npm start`: clients that hang up or
// stall, early errors on large bodies, a workerd process killed mid-upload, many uploads at once. Each test
// ends by listing the bucket: nothing but the objects of complete files.

/**
 * A lease several times shorter than the 20 s stall and short enough that dead uploads are reclaimed within the
 * test, for the tests of renewal and of a killed workerd. The others keep the default of 60 s: a worker stalled
 * past its lease (on a loaded machine) loses its upload with 503 lease-lost.
 */
const SHORT_LEASE_SECONDS = 5;

let stateDir: string;
let worker: EmbeddedWorker;
/** The `LEASE_SECONDS` the worker runs with, kept across the restarts that read the bucket. */
let leaseSeconds: number | undefined;

/**
 * Starts the worker. It keeps no read grace period (every read takes a lease), so that what replaced versions leave
 * is gone as soon as their readers are, and the bucket can be checked at once.
 */
const start = () =>
  startEmbeddedWorker({
    stateDir,
    vars: { READ_GRACE_SECONDS: "0", ...(leaseSeconds === undefined ? {} : { LEASE_SECONDS: String(leaseSeconds) }) },
  });

/** Restarts the worker with leases of `seconds` (the default when undefined). */
async function restartWithLease(seconds: number | undefined): Promise<void> {
  await worker.stop();
  leaseSeconds = seconds;
  worker = await start();
}

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-faults-"));
  worker = await start();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${worker.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${worker.token}`, ...(init.headers as Record<string, string>) },
  });
}

async function content(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await api(`/files/${name}/content`)).arrayBuffer());
}

/** Every key in the local bucket (the worker is stopped to read it, then started again). */
async function bucketKeys(): Promise<string[]> {
  await worker.stop();
  try {
    return await storedKeys();
  } finally {
    worker = await start();
  }
}

/** Every key in the local bucket, read from its files while the worker is stopped. */
function storedKeys(): Promise<string[]> {
  return localBucketKeys(stateDir);
}

/** The keys the complete files `names` may hold: each manifest and the parts it names. */
async function completeFileKeys(names: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const name of names) {
    keys.push(...versionKeys(parseManifest(await (await api(`/files/${name}`)).text())));
  }
  return keys.sort();
}

/** Sends a POST by hand: the headers, then `body`; then hangs up, or after `stallMs` sends `rest` and reads. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  then: { hangUp: true } | { stallMs: number; rest: Buffer },
): Promise<string> {
  const url = new URL(worker.url);
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect(Number(url.port), url.hostname, () => {
      const head = Object.entries({ Host: url.host, Authorization: `Bearer ${worker.token}`, ...headers })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`POST ${path} HTTP/1.1\r\n${head}Connection: close\r\n\r\n`);
      socket.write(body, () => {
        if ("hangUp" in then) setTimeout(() => socket.destroy(), 300);
        else setTimeout(() => socket.write(then.rest), then.stallMs);
      });
    });
    socket.on("data", (data) => {
      received += data.toString();
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
}

function chunked(bytes: Uint8Array): Buffer {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 65_536) {
    const piece = bytes.subarray(offset, offset + 65_536);
    pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), Buffer.from(piece), Buffer.from("\r\n"));
  }
  return Buffer.concat(pieces);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The uploads in flight that the coordinator of `name` lists. */
async function uploadsOf(name: string): Promise<unknown[]> {
  return ((await (await api(`/files/${name}/uploads`)).json()) as { uploads: unknown[] }).uploads;
}

/**
 * Waits until the coordinator of every name in `names` lists no upload in flight: the coordinator settles an
 * attempt (deletes what it wrote, then forgets it) in one turn of its serial queue, so an empty list means the
 * clean-up is done. How long that takes depends on the machine's load, so it is polled, not slept on.
 */
async function untilNoUploads(names: string[]): Promise<void> {
  for (const name of names) {
    await vi.waitFor(async () => expect(await uploadsOf(name)).toEqual([]), { timeout: 60_000, interval: 250 });
  }
}

describe("faults over real HTTP (local workerd, dev proxy)", () => {
  const previous = new Uint8Array(encodeNumbers(sampleNumbers(20_000, 31)));
  const next = new Uint8Array(encodeNumbers(sampleNumbers(400_000, 32)));

  test("a client that hangs up at 0 %, 30 % or 99 % of a Content-Length or chunked body leaves nothing", {
    timeout: 120_000,
  }, async () => {
    expect((await api("/files/abort?maxPartBytes=65536", { method: "POST", body: previous })).status).toBe(201);
    for (const share of [0, 0.3, 0.99]) {
      const sent = next.subarray(0, Math.floor(next.length * share));
      await rawPost("/files/abort?maxPartBytes=65536", { "Content-Length": String(next.length) }, Buffer.from(sent), {
        hangUp: true,
      });
      const partial = chunked(sent);
      await rawPost("/files/abort?maxPartBytes=65536", { "Transfer-Encoding": "chunked" }, partial, { hangUp: true });
    }
    await untilNoUploads(["abort"]);
    expect(await content("abort")).toEqual(previous);
    expect(await bucketKeys()).toEqual(await completeFileKeys(["abort"]));
  });

  test("a client that stalls 20 s mid-body keeps its upload (the lease is renewed) and finishes", {
    timeout: 60_000,
  }, async () => {
    await restartWithLease(SHORT_LEASE_SECONDS);
    const half = next.length >> 1;
    const answer = await rawPost(
      "/files/stall?maxPartBytes=65536",
      { "Content-Length": String(next.length) },
      Buffer.from(next.subarray(0, half)),
      { stallMs: 20_000, rest: Buffer.from(next.subarray(half)) },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
    expect(await content("stall")).toEqual(next);
    await restartWithLease(undefined);
  });

  test("early errors on 1 MB and 8 MB bodies arrive as JSON every time (20 of 20)", { timeout: 120_000 }, async () => {
    for (const size of [1_000_000, 8_000_000]) {
      const valid = new Uint8Array(encodeNumbers(sampleNumbers(Math.ceil(size / 9), 33)).subarray(0, size));
      const badLine = new Uint8Array(valid);
      badLine.set(new TextEncoder().encode("1\nx\n"), 0);
      const outcomes = { name: 0, line: 0 };
      for (let attempt = 0; attempt < 20; attempt++) {
        const name = await api("/files/..bad", { method: "POST", body: valid });
        if (name.status === 400 && ((await name.json()) as { error: string }).error === "invalid-name") outcomes.name++;
        const line = await api("/files/early", { method: "POST", body: badLine });
        const body = (await line.json().catch(() => ({}))) as { error?: string; line?: number; column?: number };
        if (line.status === 400 && body.error === "invalid-number" && body.line === 2 && body.column === 1) {
          outcomes.line++;
        }
      }
      expect({ size, ...outcomes }).toEqual({ size, name: 20, line: 20 });
    }
  });

  test("32 concurrent 2 MB uploads to different names, three rounds: all stored, nothing else left", {
    timeout: 180_000,
  }, async () => {
    const bodies = Array.from(
      { length: 32 },
      (_, index) => new Uint8Array(encodeNumbers(sampleNumbers(220_000, 100 + index))),
    );
    for (let round = 0; round < 3; round++) {
      const statuses = await Promise.all(
        bodies.map(async (body, index) => (await api(`/files/many-${index}`, { method: "POST", body })).status),
      );
      expect(statuses).toEqual(bodies.map(() => 201));
    }
    for (const [index, body] of bodies.entries()) expect(await content(`many-${index}`)).toEqual(body);
    const names = ["abort", "stall", ...bodies.map((_, index) => `many-${index}`)];
    expect(await bucketKeys()).toEqual(await completeFileKeys(names));
  });

  test("workerd killed mid-upload: after a restart the coordinators' alarms remove what the uploads wrote", {
    timeout: 120_000,
  }, async () => {
    await restartWithLease(SHORT_LEASE_SECONDS);
    const big = Buffer.from(encodeNumbers(sampleNumbers(3_000_000, 34)));
    const half = big.length >> 1;
    const names = ["killed-a", "killed-b"];
    const dying = names.map((name) =>
      rawPost(`/files/${name}?maxPartBytes=1048576`, { "Content-Length": String(big.length) }, big.subarray(0, half), {
        stallMs: 120_000,
        rest: big.subarray(half),
      }).catch(() => ""),
    );
    // Kill workerd once each upload is in flight and has had 2 s to write its first 1 MiB part.
    for (const name of names) {
      await vi.waitFor(async () => expect(await uploadsOf(name)).toHaveLength(1), { timeout: 60_000, interval: 50 });
    }
    await settle(2000);
    await worker.stop();
    await Promise.all(dying);
    const during = await storedKeys();
    for (const name of names) {
      expect(during.some((key) => key.startsWith(`${name}/uploads/`))).toBe(true);
      expect(during).not.toContain(`${name}/manifest.json`);
    }
    // Nothing touches the two names after the restart: the alarms set before the kill fire on their own.
    worker = await start();
    await settle(SHORT_LEASE_SECONDS * 1000);
    await untilNoUploads(names);
    expect((await bucketKeys()).filter((key) => key.startsWith("killed-"))).toEqual([]);
  });
});
