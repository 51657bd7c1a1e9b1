/**
 * Scenario 5: load. autocannon keeps 16 concurrent 1 MB uploads going for 10 s (loopback only) against
 * drainpipe's ingest and the naive worker's (`bench/workloads/naive-ingest.ts`: `TextDecoderStream`, string split,
 * one write per number), each into a discarding store and into local R2. Reports requests/s, p50/p99
 * latency and errors. Before the load, one request per row is checked: its numbers and bytes must match the
 * body (and drainpipe's stored content, read back, must equal it).
 *
 * Run alone: `npx node bench/scenarios/05-load.ts [--seconds N] [--connections N] [--bytes N]` (`--quick` for
 * the quick run's sizes, `--help` for the options).
 *
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { median } from "simple-statistics";
import { type RunningWorker, startRealWorker } from "../../harness/local-worker.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { startIngestWorker, waitUntilIdle } from "../workers/bench-worker.ts";
import { countLines, sameBytes } from "../workloads/byte-chunks.ts";
import type { NaiveIngestResult } from "../workloads/naive-ingest.ts";
import { primesTextOfSize } from "../workloads/primes-file.ts";

/** Options of {@linkcode runLoad}. */
export interface LoadOptions {
  /** Seconds of load per row (default 10). */
  seconds?: number;
  /** Concurrent uploads (default 16). */
  connections?: number;
  /** Body size in bytes, cut at a line break (default 1,000,000). */
  bytes?: number;
  /** Rounds of the interleaved comparison of the two local-R2 manifest rows (default 4). */
  rounds?: number;
}

/** One row: an upload path on one of the workers. */
interface Row {
  name: string;
  worker: "bench" | "real";
  /** The path of the `n`th request (unique names where the target keeps what it stores). */
  path: (n: number) => string;
  /** The numbers and bytes an answer reports. */
  totals: (answer: unknown) => { numbers: number; bytes: number };
}

const manifestTotals = (manifest: Manifest) => ({ numbers: manifest.totals.numbers, bytes: manifest.totals.bytes });
const naiveTotals = (answer: unknown) => answer as NaiveIngestResult;

/** The two rows that differ only in how the manifest is published. */
const COMPARE_AND_SWAP: Row = {
  name: "drainpipe → local R2, manifest by compare-and-swap (no coordinator)",
  worker: "bench",
  path: (n) => `/drainpipe/r2?name=cas-${n}`,
  totals: (answer) => manifestTotals(answer as Manifest),
};
const COORDINATED: Row = {
  name: "drainpipe → local R2, through the file coordinator",
  worker: "bench",
  path: (n) => `/drainpipe/r2?name=coordinated-${n}&coordinated=1`,
  totals: (answer) => manifestTotals(answer as Manifest),
};

const ROWS: Row[] = [
  {
    name: "drainpipe → discarding store",
    worker: "bench",
    path: () => "/drainpipe/discard",
    totals: (answer) => manifestTotals((answer as { manifest: Manifest }).manifest),
  },
  COMPARE_AND_SWAP,
  COORDINATED,
  { name: "naive → discarding store", worker: "bench", path: () => "/naive/discard", totals: naiveTotals },
  { name: "naive → local R2", worker: "bench", path: (n) => `/naive/r2?name=load-${n}`, totals: naiveTotals },
  {
    name: "drainpipe worker → local R2",
    worker: "real",
    path: (n) => `/files/load-${n}`,
    totals: (answer) => manifestTotals(answer as Manifest),
  },
];

async function checkRow(
  worker: RunningWorker,
  row: Row,
  body: Uint8Array,
  lines: number,
): Promise<OutputCheck & { ms: number }> {
  const start = performance.now();
  const response = await fetch(`${worker.url}${row.path(-1)}`, {
    method: "POST",
    body: body as Uint8Array<ArrayBuffer>,
    headers: worker.headers,
  });
  const text = await response.text();
  const ms = performance.now() - start;
  if (!response.ok)
    return { variant: row.name, ok: false, detail: `answered ${response.status}: ${text.slice(0, 300)}`, ms };
  const totals = row.totals(JSON.parse(text));
  let ok = totals.numbers === lines && totals.bytes === body.length;
  let detail = `${totals.numbers} numbers, ${totals.bytes} bytes stored of ${lines}, ${body.length}`;
  if (row.worker === "real") {
    const stored = new Uint8Array(
      await (await fetch(`${worker.url}${row.path(-1)}/content`, { headers: worker.headers })).arrayBuffer(),
    );
    ok &&= sameBytes(stored, body);
    detail += `; content read back identical: ${sameBytes(stored, body)}`;
  }
  return { variant: row.name, ok, detail, ms };
}

async function load(
  worker: RunningWorker,
  row: Row,
  body: Uint8Array,
  seconds: number,
  connections: number,
  firstRequest = 0,
): Promise<autocannon.Result> {
  let next = firstRequest;
  return autocannon({
    url: worker.url,
    connections,
    duration: seconds,
    timeout: 120,
    requests: [
      {
        method: "POST",
        headers: { ...worker.headers, "content-type": "text/plain" },
        body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
        setupRequest: (request) => ({ ...request, path: row.path(next++) }),
      },
    ],
  });
}

/**
 * The coordinator's cost without the order of the rows in it: `rounds` rounds of one `seconds` window per row,
 * in ABBA order (the row that went second goes first next round), each window once the worker is idle and with
 * file names of its own. Returns each row's requests/s per window.
 */
async function interleavedManifestRows(
  worker: RunningWorker,
  body: Uint8Array,
  seconds: number,
  connections: number,
  rounds: number,
): Promise<Map<Row, number[]>> {
  const perWindow = new Map<Row, number[]>([
    [COMPARE_AND_SWAP, []],
    [COORDINATED, []],
  ]);
  let window = 0;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [COMPARE_AND_SWAP, COORDINATED] : [COORDINATED, COMPARE_AND_SWAP];
    for (const row of order) {
      window += 1;
      await waitUntilIdle(worker);
      const result = await load(worker, row, body, seconds, connections, window * 1_000_000);
      perWindow.get(row)?.push(result.requests.total / seconds);
    }
  }
  return perWindow;
}

/** Runs scenario 5: the bench worker's rows, then the real worker's (one worker at a time). */
async function runLoad(options: LoadOptions = {}): Promise<ScenarioResult> {
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 16;
  const body = await primesTextOfSize(options.bytes ?? 1_000_000);
  const lines = countLines(body);
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-load-"));
  const results = new Map<string, autocannon.Result>();
  const checks: OutputCheck[] = [];
  const alone = new Map<string, number>();
  const drained = new Map<string, number>();
  const rounds = options.rounds ?? 4;
  const windowSeconds = Math.max(1, Math.round(seconds / 2));
  let interleaved = new Map<Row, number[]>();
  try {
    for (const kind of ["bench", "real"] as const) {
      const worker =
        kind === "bench" ? await startIngestWorker(join(stateDir, kind)) : await startRealWorker(join(stateDir, kind));
      try {
        for (const row of ROWS.filter((candidate) => candidate.worker === kind)) {
          await waitUntilIdle(worker);
          const { ms, ...check } = await checkRow(worker, row, body, lines);
          checks.push(check);
          alone.set(row.name, ms);
          results.set(row.name, await load(worker, row, body, seconds, connections));
          drained.set(row.name, await waitUntilIdle(worker));
        }
        if (kind === "bench") {
          interleaved = await interleavedManifestRows(worker, body, windowSeconds, connections, rounds);
        }
      } finally {
        await worker.stop();
      }
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
  const requestsPerSecond = (row: Row) => results.get(row.name)!.requests.total / seconds;
  const byName = (name: string) => ROWS.find((row) => row.name === name)!;
  const naiveBaseline = (row: Row) => byName(row.name.includes("R2") ? "naive → local R2" : "naive → discarding store");
  const versusNaive = (row: Row) => {
    const naive = requestsPerSecond(naiveBaseline(row));
    return naive > 0 ? significant(requestsPerSecond(row) / naive) : undefined;
  };
  const versusNaiveAlone = (row: Row) => significant(alone.get(naiveBaseline(row).name)! / alone.get(row.name)!);
  const rows = ROWS.map((row) => {
    const result = results.get(row.name)!;
    return {
      row: row.name,
      "requests/s": significant(requestsPerSecond(row)),
      "MB/s": significant((requestsPerSecond(row) * body.length) / 1e6),
      "p50 ms": result.requests.total > 0 ? result.latency.p50 : "–",
      "p99 ms": result.requests.total > 0 ? result.latency.p99 : "–",
      "× naive": versusNaive(row) ?? "naive completed none",
      completed: result.requests.total,
      "one upload alone ms": Math.round(alone.get(row.name)!),
      "× naive, alone": versusNaiveAlone(row),
      "busy after load s": significant(drained.get(row.name)! / 1000, 2),
      "errors / non-2xx / timeouts": `${result.errors} / ${result.non2xx} / ${result.timeouts}`,
    };
  });
  for (const row of ROWS) {
    const result = results.get(row.name)!;
    const clean = result.errors === 0 && result.non2xx === 0 && result.timeouts === 0;
    checks.push({
      variant: row.name,
      ok: clean,
      detail: `under load: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    });
  }
  return {
    id: "load",
    title: `${connections} concurrent ${(body.length / 1e6).toFixed(1)} MB uploads for ${seconds} s`,
    runtime: `workerd (wrangler unstable_dev), client: autocannon on node ${process.versions.node}`,
    columns: [
      "row",
      "requests/s",
      "MB/s",
      "p50 ms",
      "p99 ms",
      "× naive",
      "completed",
      "one upload alone ms",
      "× naive, alone",
      "busy after load s",
      "errors / non-2xx / timeouts",
    ],
    rows,
    notes: [
      `autocannon over loopback, ${connections} connections, ${seconds} s per row, rows one after another; the ` +
        `body is the first ${lines.toLocaleString("en")} primes. requests/s = responses completed within the ` +
        `${seconds} s ÷ ${seconds} (uploads still running at the end are not counted); "one upload alone" is the ` +
        "checked request made before the load, on an idle worker. Uploads abandoned at the end keep running in " +
        'workerd: "busy after load" is how long its process stayed busy afterwards, and every row starts only ' +
        "once it is idle again.",
      "naive: the body through a native TextDecoderStream, lines by String.split, one awaited write per number " +
        "into a native WritableStream that rotates into the same 10 MiB parts (bench/workloads/naive-ingest.ts). " +
        "× naive compares with the naive row of the same store.",
      "The drainpipe discarding row runs the real upload route's pipeline in bench/workers/ingest-worker.ts; the " +
        "local-R2 row is the real worker with a new file name per request.",
      interleavedNote(interleaved, rounds, windowSeconds),
    ],
    speedups: ROWS.map((row) => {
      const underLoad = versusNaive(row);
      return underLoad === undefined || underLoad === 0
        ? { label: `${row.name} (one upload alone)`, value: versusNaiveAlone(row) }
        : { label: `${row.name} (under load)`, value: underLoad };
    }),
    checks,
  };
}

/** The note on {@link interleavedManifestRows}: each row's median requests/s, its samples and their ratio. */
function interleavedNote(perWindow: Map<Row, number[]>, rounds: number, seconds: number): string {
  const casSamples = perWindow.get(COMPARE_AND_SWAP) ?? [];
  const coordinatedSamples = perWindow.get(COORDINATED) ?? [];
  if (casSamples.length === 0 || coordinatedSamples.length === 0) return "The interleaved comparison did not run.";
  const cas = median(casSamples);
  const coordinated = median(coordinatedSamples);
  const samples = (values: number[]) => values.map((value) => significant(value)).join(", ");
  const ratio = cas > 0 ? significant(coordinated / cas) : "–";
  return (
    `The coordinator's cost without the rows' order: ${rounds} rounds of one ${seconds} s window per row, ` +
    "alternating which goes first, each once the worker is idle: compare-and-swap median " +
    `${significant(cas)} requests/s (${samples(casSamples)}), through the file coordinator ` +
    `${significant(coordinated)} (${samples(coordinatedSamples)}), ratio ${ratio}. Locally the ` +
    "coordinators' Durable Objects run in the same workerd process as the uploads, on the same cores, so their " +
    "CPU comes out of the uploads'; on Workers each runs in an isolate of its own."
  );
}

/** Scenario 5. */
export const scenario = defineScenario<LoadOptions>({
  id: "load",
  title: "Load",
  measures:
    "requests/s, p50/p99 latency and errors of 16 concurrent 1 MB uploads kept going for 10 s (autocannon, " +
    "loopback) against drainpipe's ingest and a naive worker's (TextDecoderStream, String.split, one write per " +
    "number), each into a discarding store and into local R2; one checked upload per row comes first. Two rows " +
    "differ only in how the manifest is published: by a compare-and-swap on R2 (the worker before its file " +
    "coordinator) or through the file coordinator (two Durable Object calls per upload, begin and publish, plus " +
    "one per multipart part and one lease renewal per 15 s); those two rows are also compared in alternating " +
    "windows, so that their order in the table does not decide it.",
  why:
    "concurrent uploads share one workerd isolate: per-request overhead, garbage and backpressure that a single " +
    "upload hides show up as throughput, tail latency or errors under load; and the coordinator that makes " +
    "every file consistent must not cost more than 10 % of the upload throughput.",
  options: {
    seconds: "seconds of load per row (default 10)",
    connections: "concurrent uploads (default 16)",
    bytes: "body size in bytes, cut at a line break (default 1,000,000)",
    rounds: "rounds of the interleaved comparison of the two local-R2 manifest rows (default 4)",
  },
  quick: { seconds: 1, connections: 2, bytes: 100_000, rounds: 1 },
  run: async (options) => [await runLoad(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
