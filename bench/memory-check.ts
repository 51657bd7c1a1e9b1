/**
 * `npm run check:memory`: the bounded-memory check, over real HTTP to local workerd. A body of the first
 * 100,000,000 primes (about 1 GB, made on the fly and never stored on disk) is POSTed twice:
 *
 * 1. to the bench worker's `/drainpipe/discard` route: the worker's own upload pipeline (`storeRequestBody`)
 *    into a store that keeps only digests. Checks the counts, a SHA-256 of the parts against the bytes sent,
 *    and that the workerd process's peak RSS stays within its idle RSS + 64 MB. This isolates drainpipe's own
 *    memory: locally R2 is simulated inside the same workerd process.
 * 2. to the real worker with local R2: checks the counts and a SHA-256 of the stored content read back, and
 *    reports the workerd process's peak RSS growth, which includes the local R2 simulator's.
 *
 * Idle RSS is read after a warm-up upload (20,000,000 primes) with the peak then reset. Exits 1 when a check
 * fails. `CHECK_PRIMES=N` sends fewer primes (a quicker run). Bodies are sent with `redirect: "error"`: without
 * it Node's fetch keeps a copy of a streamed body for a possible redirect, holding all of it in this process.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DiscardedObject } from "../harness/discarding-store.ts";
import { type RunningWorker, startRealWorker } from "../harness/local-worker.ts";
import { memoryOf, resetPeakRss } from "../harness/process-usage.ts";
import type { Manifest } from "../src/files/manifest.ts";
import { primeTextStream } from "../src/numbers/prime-text-stream.ts";
import { startIngestWorker } from "./workers/bench-worker.ts";

const COUNT = Number(process.env.CHECK_PRIMES ?? 100_000_000);
const WARM_UP = Math.min(COUNT, 20_000_000);
const BUDGET = 64 * 1_000_000;
const MB = 1_000_000;

let failed = false;
function check(ok: boolean, what: string): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
}

/** The primes as a body, hashed (SHA-256) and counted as they are sent. */
function hashedPrimes(count: number): { body: ReadableStream<Uint8Array>; digest: () => string; bytes: () => number } {
  const hash = createHash("sha256");
  let bytes = 0;
  const body = primeTextStream(count).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  return { body, digest: () => hash.digest("hex"), bytes: () => bytes };
}

async function post(worker: RunningWorker, path: string, body: ReadableStream<Uint8Array>): Promise<Response> {
  return fetch(`${worker.url}${path}`, {
    method: "POST",
    body,
    headers: worker.headers,
    duplex: "half",
    redirect: "error",
  } as RequestInit);
}

/** Warms `path` up, resets the peak, sends the primes, and returns the response with the memory figures. */
async function measured(worker: RunningWorker, path: string) {
  const warm = await post(worker, path, hashedPrimes(WARM_UP).body);
  check(warm.ok, `warm-up of ${WARM_UP.toLocaleString("en")} primes answered ${warm.status}`);
  await warm.arrayBuffer();
  const pid = worker.pid();
  resetPeakRss(pid);
  const idle = memoryOf(pid).rss;
  const sent = hashedPrimes(COUNT);
  const start = performance.now();
  const response = await post(worker, path, sent.body);
  const json = (await response.json()) as Record<string, unknown>;
  const seconds = (performance.now() - start) / 1000;
  const peak = memoryOf(pid).peak;
  const sentMB = sent.bytes() / MB;
  console.log(
    `  sent ${sentMB.toFixed(1)} MB in ${seconds.toFixed(1)} s (${(sentMB / seconds).toFixed(1)} MB/s); ` +
      `workerd idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB ` +
      `(+${((peak - idle) / MB).toFixed(1)} MB)`,
  );
  return { response, json, sent, growth: peak - idle };
}

/** SHA-256 digests of consecutive pieces of the primes text, `sizes` bytes each, made again from scratch. */
async function partDigests(count: number, sizes: number[]): Promise<string[]> {
  const digests: string[] = [];
  let part = 0;
  let left = sizes[0] ?? 0;
  let hash = createHash("sha256");
  for await (const chunk of primeTextStream(count) as unknown as AsyncIterable<Uint8Array>) {
    let offset = 0;
    while (offset < chunk.length && part < sizes.length) {
      const take = Math.min(left, chunk.length - offset);
      hash.update(chunk.subarray(offset, offset + take));
      offset += take;
      left -= take;
      if (left === 0) {
        digests.push(hash.digest("hex"));
        hash = createHash("sha256");
        part += 1;
        left = sizes[part] ?? 0;
      }
    }
  }
  return digests;
}

function checkCounts(manifest: Manifest, sentBytes: number): void {
  check(manifest.totals?.numbers === COUNT, `manifest counts ${manifest.totals?.numbers} numbers of ${COUNT}`);
  check(manifest.totals?.bytes === sentBytes, `manifest counts ${manifest.totals?.bytes} bytes of ${sentBytes} sent`);
}

const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-memory-"));
try {
  console.log(`1. the upload pipeline into a discarding store (bench worker), ${COUNT.toLocaleString("en")} primes`);
  const ingest = await startIngestWorker(stateDir);
  try {
    const { response, json, sent, growth } = await measured(ingest, "/drainpipe/discard?digests=1");
    check(response.status === 200, `upload answered ${response.status}`);
    checkCounts(json.manifest as Manifest, sent.bytes());
    const manifest = json.manifest as Manifest;
    const byKey = new Map((json.objects as DiscardedObject[]).map((object) => [object.key, object]));
    const objects = manifest.parts.map((part) => byKey.get(part.key));
    const expected = await partDigests(
      COUNT,
      manifest.parts.map((part) => part.bytes),
    );
    check(
      objects.length === expected.length && objects.every((object, i) => object?.sha256 === expected[i]),
      `the SHA-256 of each of the ${objects.length} parts equals that of the same bytes of the input`,
    );
    check(growth <= BUDGET, `workerd peak RSS growth ${(growth / MB).toFixed(1)} MB within +${BUDGET / MB} MB`);
  } finally {
    await ingest.stop();
  }

  console.log(`2. the real worker into local R2, ${COUNT.toLocaleString("en")} primes`);
  const real = await startRealWorker(stateDir);
  try {
    const { response, json, sent, growth } = await measured(real, "/files/memory-check");
    check(response.status === 201, `upload answered ${response.status}`);
    checkCounts(json as unknown as Manifest, sent.bytes());
    const stored = createHash("sha256");
    const content = await fetch(`${real.url}/files/memory-check/content`, { headers: real.headers });
    for await (const chunk of content.body as unknown as AsyncIterable<Uint8Array>) stored.update(chunk);
    const storedDigest = stored.digest("hex");
    const sentDigest = sent.digest();
    check(
      storedDigest === sentDigest,
      `SHA-256 of the stored content ${storedDigest.slice(0, 16)}… equals the sent ${sentDigest.slice(0, 16)}…`,
    );
    console.log(
      `  (information) workerd peak RSS growth with local R2 in the same process: +${(growth / MB).toFixed(1)} MB`,
    );
  } finally {
    await real.stop();
  }
} finally {
  await rm(stateDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
