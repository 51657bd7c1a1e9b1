/**
 * The worker's fixed CPU cost per request, which the Free plan's 10 ms per request must also hold beside the
 * per-MB cost of the body: the real worker in local workerd, warmed up, answers `ROUNDS` requests of each kind with
 * (almost) no body, and the workerd process's CPU time over them is divided by their count. Local workerd runs the
 * file's Durable Object and miniflare's entry worker in the same process, so the figure is an upper bound of what
 * the worker's own invocation costs on the platform (where the coordinator's calls are invocations of their own).
 *
 * Run: `npm run bench:request-cost -- [rounds]` (default 300); prints a table of CPU ms per
 * request, median of 3 batches. The CPU clock ticks in 10 ms, so batches are long enough for that not to matter.
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "simple-statistics";
import { type RunningWorker, startRealWorker } from "../../harness/local-worker.ts";
import { cpuMs } from "../../harness/process-usage.ts";
import { startIngestWorker, waitUntilIdle } from "../workers/bench-worker.ts";

const ROUNDS = Number(process.argv[2] ?? 300);
const BATCHES = 3;

/** One kind of request: what it sends, and the status it must answer. */
interface Kind {
  worker: "real" | "bench";
  label: string;
  send: (worker: RunningWorker, round: number) => Promise<Response>;
  status: number;
}

const call = (worker: RunningWorker, path: string, init: RequestInit = {}) =>
  fetch(`${worker.url}${path}`, {
    ...init,
    headers: { ...worker.headers, ...(init.headers as Record<string, string>) },
  });

const KINDS: Kind[] = [
  {
    worker: "bench",
    label: "bench worker: read a one-line body and answer (the floor: entry worker, fetch, body read)",
    send: (worker) => call(worker, "/floor/read", { method: "POST", body: "1\n" }),
    status: 200,
  },
  {
    worker: "bench",
    label: "bench worker: the upload pipeline on a one-line body into a discarding store",
    send: (worker) => call(worker, "/drainpipe/discard", { method: "POST", body: "1\n" }),
    status: 200,
  },
  {
    worker: "real",
    label: "POST /files/:name, one line (admit, one part, publish)",
    send: (worker, round) => call(worker, `/files/fixed-${round % 20}`, { method: "POST", body: "1\n" }),
    status: 201,
  },
  {
    worker: "real",
    label: "GET /files/:name/content, one part (open, get, release)",
    send: (worker) => call(worker, "/files/fixed-0/content"),
    status: 200,
  },
  {
    worker: "real",
    label: "GET /files/:name (the manifest)",
    send: (worker) => call(worker, "/files/fixed-0"),
    status: 200,
  },
];

const rows: string[] = [];
for (const which of ["bench", "real"] as const) {
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-fixed-cost-"));
  const worker = await (which === "real" ? startRealWorker(stateDir) : startIngestWorker(stateDir));
  try {
    for (const kind of KINDS.filter((candidate) => candidate.worker === which)) rows.push(await measure(worker, kind));
  } finally {
    await worker.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}
console.log(`workerd CPU per request, ${ROUNDS} requests per batch, median of ${BATCHES} batches\n`);
console.log("| request | CPU ms per request | batches |\n| --- | --- | --- |");
console.log(rows.join("\n"));

/** Warms `kind` up, then times `BATCHES` batches of it; its table row. */
async function measure(worker: RunningWorker, kind: Kind): Promise<string> {
  for (let round = 0; round < 50; round++) await expectStatus(kind, await kind.send(worker, round));
  const perRequest: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    await waitUntilIdle(worker);
    const before = cpuMs(worker.pid());
    for (let round = 0; round < ROUNDS; round++) await expectStatus(kind, await kind.send(worker, round));
    await waitUntilIdle(worker);
    perRequest.push((cpuMs(worker.pid()) - before) / ROUNDS);
  }
  return `| ${kind.label} | ${median(perRequest).toFixed(2)} | ${perRequest.map((v) => v.toFixed(2)).join(", ")} |`;
}

async function expectStatus(kind: Kind, response: Response): Promise<void> {
  await response.arrayBuffer();
  if (response.status !== kind.status) {
    throw new Error(`Cannot measure "${kind.label}": the worker answered ${response.status}, not ${kind.status}`);
  }
}
