/**
 * `npm run check:memory`: the bounded-memory check. POSTs a 1 GB body (the first 100,000,000 primes, made on
 * the fly and never stored on disk) to the worker in local workerd over real HTTP, checks the manifest's
 * counts and a SHA-256 of the stored content against the bytes sent, and checks that the workerd process's
 * peak RSS stayed within its idle RSS + 64 MB. Exits 1 when a check fails. `CHECK_PRIMES=N` sends fewer
 * primes (a quicker run). The body is sent with `redirect: "error"`: without it Node's fetch keeps a copy of a
 * streamed body for a possible redirect, holding all of it in this process.
 *
 * "Idle" is measured after a warm-up upload of 2,000,000 primes, with the peak then reset: locally, R2 is
 * simulated inside the same workerd process, and that simulator alone grows the process by about 80–100 MB
 * over its first puts of 10 MiB objects (measured with a worker that only puts one reused buffer), memory
 * that R2 does not take from an isolate in production. The check is that nothing grows with the input
 * beyond that steady state. Cold-start figures are printed too.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedWorker } from "../src/cli/embedded-worker.ts";
import { primeTextStream } from "../src/numbers/prime-text-stream.ts";
import type { Manifest } from "../src/split/manifest.ts";
import { embeddedWorkerdPids, memoryOf, resetPeak } from "./workerd-memory.ts";

const COUNT = Number(process.env.CHECK_PRIMES ?? 100_000_000);
const BUDGET = 64 * 1024 * 1024;
const MB = 1_000_000;

const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-memory-"));
const worker = await startEmbeddedWorker({ stateDir });
const headers = { Authorization: `Bearer ${worker.token}` };
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};

try {
  const { worker: pid, proxy } = embeddedWorkerdPids();
  const cold = memoryOf(pid);
  const warmup = await fetch(`${worker.url}/files/warmup/primes?count=2000000`, { method: "POST", headers });
  check(warmup.status === 201, `warm-up upload answered ${warmup.status}`);
  const warm = memoryOf(pid);
  console.log(
    `workerd (worker) pid ${pid}: cold RSS ${(cold.rss / MB).toFixed(1)} MB, ` +
      `after warm-up RSS ${(warm.rss / MB).toFixed(1)} MB (peak ${(warm.peak / MB).toFixed(1)} MB); peak reset`,
  );
  resetPeak(pid);
  const idle = memoryOf(pid);
  const proxyIdle = memoryOf(proxy);

  const sent = createHash("sha256");
  let sentBytes = 0;
  const body = primeTextStream(COUNT).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent.update(chunk);
        sentBytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const start = performance.now();
  const response = await fetch(`${worker.url}/files/memory-check?maxPartBytes=${process.env.CHECK_MAX_PART_BYTES ?? 10 * 1024 * 1024}`, {
    method: "POST",
    body,
    headers,
    duplex: "half",
    redirect: "error",
  } as RequestInit);
  const seconds = (performance.now() - start) / 1000;
  const manifest = (await response.json()) as Manifest;
  check(response.status === 201, `upload answered ${response.status}`);
  console.log(
    `uploaded ${(sentBytes / MB).toFixed(1)} MB, ${COUNT.toLocaleString("en")} primes in ${seconds.toFixed(1)} s ` +
      `(${(sentBytes / MB / seconds).toFixed(1)} MB/s), ${manifest.totals?.parts} parts`,
  );
  const after = memoryOf(pid);
  const proxyAfter = memoryOf(proxy);
  console.log(
    `wrangler's proxy workerd (not drainpipe code, it forwards the body): idle ${(proxyIdle.rss / MB).toFixed(1)} MB, ` +
      `peak ${(proxyAfter.peak / MB).toFixed(1)} MB`,
  );
  check(manifest.totals?.numbers === COUNT, `manifest counts ${manifest.totals?.numbers} numbers`);
  check(manifest.totals?.bytes === sentBytes, `manifest counts ${manifest.totals?.bytes} bytes of ${sentBytes} sent`);

  const stored = createHash("sha256");
  const content = await fetch(`${worker.url}/files/memory-check/content`, { headers });
  for await (const chunk of content.body as unknown as AsyncIterable<Uint8Array>) stored.update(chunk);
  const sentDigest = sent.digest("hex");
  const storedDigest = stored.digest("hex");
  check(storedDigest === sentDigest, `SHA-256 of stored content ${storedDigest.slice(0, 16)}… equals sent ${sentDigest.slice(0, 16)}…`);

  const growth = after.peak - idle.rss;
  check(
    growth <= BUDGET,
    `workerd peak RSS ${(after.peak / MB).toFixed(1)} MB = idle ${(idle.rss / MB).toFixed(1)} MB + ${(growth / MB).toFixed(1)} MB (budget +${BUDGET / MB / 1.048576} MiB)`,
  );
} finally {
  await worker.stop();
  await rm(stateDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
