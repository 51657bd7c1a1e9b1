/**
 * Scenario 4: HTTP ingest. POSTs 100 MB of primes (whole lines) over real local HTTP to workers in local
 * workerd, all in one run (per worker, its rows interleaved round by round):
 *
 * - floor: body read: the bench worker reads the body with `{ min: 1 MiB }` reads and does nothing else;
 * - fused loop → discarding store: the same reads, each run through scenario 3's fused loop (parse, re-encode,
 *   rotate), storing nothing;
 * - drainpipe → discarding store: the real upload route's pipeline in the bench worker, storing nothing;
 * - the same with a non-canonical body: the same numbers with `\r\n` endings, leading zeros and blank lines
 *   (`nonCanonicalText`), whose every line the pipeline parses and encodes again;
 * - floor: R2 put: the same body reads gathered into 10 MiB buffers and `put` to local R2;
 * - drainpipe worker → local R2: the real worker (`src/worker/index.ts`), `POST /files/:name`.
 *
 * For each, the CPU time (the headline: user + system time from `/proc/<pid>/stat` until the process is idle again,
 * as CPU ms per MB of its body) and the peak RSS (`VmHWM`, reset before every request) of the workerd process
 * running the worker's code. Outputs are checked: the stored content of the real worker is read back and compared
 * byte for byte, the discarding store's per-part SHA-256 (an extra, untimed request) against the input's.
 *
 * Run alone: `npx node bench/scenarios/04-http-ingest.ts [--bytes N] [--runs N]` (`--bytes 1e8` for 100 MB;
 * `--quick` for the quick run's sizes, `--help` for the options).
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "simple-statistics";
import { type DiscardedObject, discardedEqual } from "../../harness/discarding-store.ts";
import { type RunningWorker, startRealWorker } from "../../harness/local-worker.ts";
import { memoryOf } from "../../harness/process-usage.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { measureRequest, postJson, startIngestWorker } from "../workers/bench-worker.ts";
import { countLines, sameBytes } from "../workloads/byte-chunks.ts";
import { nonCanonicalText } from "../workloads/non-canonical.ts";
import { primesTextOfSize } from "../workloads/primes-file.ts";

/** Options of {@linkcode runHttpIngest}. */
export interface HttpIngestOptions {
  /** Body size in bytes, cut at a line break (default 100,000,000). */
  bytes?: number;
  /** Timed requests per row, interleaved (default 3). */
  runs?: number;
}

const MB = 1_000_000;

/** How the notes describe the peaks, when they could be reset before each request and when not. */
const PEAK_RESET = "reset before each request (clear_refs 5), so it is that request's own peak";
const PEAK_NOT_RESET = "NOT reset (clear_refs refused), so peaks are cumulative";

/** One row: a request to one of the workers. */
interface Row {
  name: string;
  worker: "bench" | "real";
  /** The body it sends: the canonical primes, or the same numbers written non-canonically. */
  body: "canonical" | "non-canonical";
  path: (round: number) => string;
  /** Checks the JSON answer of a timed request; returns a description of what held, or throws. */
  check: (answer: unknown, body: Uint8Array) => string;
}

function ensure(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const ROWS: Row[] = [
  {
    name: "floor: body read ({ min: 1 MiB })",
    worker: "bench",
    body: "canonical",
    path: () => "/floor/read",
    check(answer, body) {
      const { bytes } = answer as { bytes: number };
      ensure(bytes === body.length, `read ${bytes} bytes of ${body.length}`);
      return `read all ${bytes} bytes`;
    },
  },
  {
    name: "fused loop → discarding store",
    worker: "bench",
    body: "canonical",
    path: () => "/fused/discard",
    check(answer, body) {
      const { bytes, keys } = answer as { bytes: number; keys: string[] };
      ensure(bytes === body.length, `read ${bytes} bytes of ${body.length}`);
      return `read all ${bytes} bytes into ${keys.length} parts`;
    },
  },
  {
    name: "drainpipe → discarding store",
    worker: "bench",
    body: "canonical",
    path: () => "/drainpipe/discard",
    check(answer, body) {
      const { manifest } = answer as { manifest: Manifest };
      ensure(manifest.totals.bytes === body.length, `manifest has ${manifest.totals.bytes} bytes of ${body.length}`);
      return `manifest totals = input (${manifest.totals.parts} parts)`;
    },
  },
  {
    name: "drainpipe → discarding store, non-canonical body",
    worker: "bench",
    body: "non-canonical",
    path: () => "/drainpipe/discard",
    check(answer, body) {
      const { manifest } = answer as { manifest: Manifest };
      const lines = countLines(body);
      ensure(manifest.source.kind === "upload" && !manifest.source.canonical, "input seen as canonical");
      ensure(manifest.source.kind === "upload" && manifest.source.lines === lines, "not every line counted");
      const { bytes, parts } = manifest.totals;
      return `${lines} lines read, not canonical; stored ${bytes} bytes (${parts} parts)`;
    },
  },
  {
    name: "floor: R2 put (10 MiB puts)",
    worker: "bench",
    body: "canonical",
    path: (round) => `/floor/r2-put?name=round-${round}`,
    check(answer, body) {
      const { bytes, keys } = answer as { bytes: number; keys: string[] };
      ensure(bytes === body.length, `put ${bytes} bytes of ${body.length}`);
      return `put all ${bytes} bytes in ${keys.length} objects`;
    },
  },
  {
    name: "drainpipe worker → local R2",
    worker: "real",
    body: "canonical",
    path: () => "/files/bench-ingest?maxPartBytes=10485760",
    check(answer, body) {
      const manifest = answer as Manifest;
      ensure(manifest.totals.bytes === body.length, `manifest has ${manifest.totals.bytes} bytes of ${body.length}`);
      ensure(manifest.source.kind === "upload" && manifest.source.canonical, "input not seen as canonical");
      return `manifest totals = input (${manifest.totals.parts} parts)`;
    },
  },
];

/** One timed request of a row: wall ms, the workerd process's CPU ms and its peak RSS in bytes. */
interface Sample {
  ms: number;
  cpuMs: number;
  peak: number;
}

function checkAnswer(row: Row, answer: unknown, body: Uint8Array): OutputCheck {
  try {
    return { variant: row.name, ok: true, detail: row.check(answer, body) };
  } catch (error) {
    return { variant: row.name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Checks the discarding route's per-part digests, after sending `body`, against `canonical` (the body itself, or
 * what storing it gives), cut where the manifest says.
 */
async function checkDiscardDigests(
  worker: RunningWorker,
  row: Row,
  body: Uint8Array,
  canonical: Uint8Array,
): Promise<OutputCheck> {
  const { manifest, objects } = (await postJson(worker, "/drainpipe/discard?digests=1", body)) as {
    manifest: Manifest;
    objects: DiscardedObject[];
  };
  const byKey = new Map(objects.map((object) => [object.key, object]));
  const parts = manifest.parts.map((part) => byKey.get(part.key) ?? { key: part.key, bytes: part.bytes });
  const ok = manifest.totals.bytes === canonical.length && (await discardedEqual(parts, canonical));
  return {
    variant: row.name,
    ok,
    detail: `SHA-256 of each of ${manifest.parts.length} parts = slice of the canonical input: ${ok}`,
  };
}

/** Reads the real worker's stored content back and compares it with the input. */
async function checkStoredContent(worker: RunningWorker, body: Uint8Array): Promise<OutputCheck> {
  const response = await fetch(`${worker.url}/files/bench-ingest/content`, { headers: worker.headers });
  const stored = new Uint8Array(await response.arrayBuffer());
  const ok = response.ok && sameBytes(stored, body);
  return {
    variant: "drainpipe worker → local R2",
    ok,
    detail: `GET /files/bench-ingest/content = input (${stored.length} bytes): ${ok}`,
  };
}

/** The bodies rows send, by kind. */
type Bodies = Record<Row["body"], Uint8Array>;

/** Runs the `rows` of one worker: one untimed 1 MB request each, then `runs` rounds, rows interleaved. */
async function measureRows(
  worker: RunningWorker,
  rows: readonly Row[],
  bodies: Bodies,
  runs: number,
): Promise<{
  samples: Map<string, Sample[]>;
  checks: OutputCheck[];
  idle: number;
  peaksReset: boolean;
}> {
  for (const row of rows) {
    const body = bodies[row.body];
    await postJson(worker, row.path(-1), body.subarray(0, body.lastIndexOf(0x0a, Math.min(body.length, MB) - 1) + 1));
  }
  const idle = memoryOf(worker.pid()).rss;
  const samples = new Map<string, Sample[]>(rows.map((row) => [row.name, []]));
  const checks: OutputCheck[] = [];
  let peaksReset = true;
  for (let round = 0; round < runs; round++) {
    for (const row of rows) {
      const path = row.path(round);
      const body = bodies[row.body];
      const { ms, cpuMs, peak, peakReset, value } = await measureRequest(worker, path, () =>
        postJson(worker, path, body),
      );
      peaksReset &&= peakReset;
      samples.get(row.name)!.push({ ms, cpuMs, peak });
      if (round === 0) checks.push(checkAnswer(row, value, body));
    }
  }
  return { samples, checks, idle, peaksReset };
}

/**
 * Runs scenario 4: starts the bench worker, measures its rows, stops it; then the same with the real worker
 * (R2 in temporary directories). One worker runs at a time, so each one's workerd process is known.
 */
async function runHttpIngest(options: HttpIngestOptions = {}): Promise<ScenarioResult> {
  const runs = options.runs ?? 3;
  const body = await primesTextOfSize(options.bytes ?? 100 * MB);
  const bodies: Bodies = { canonical: body, "non-canonical": nonCanonicalText(body) };
  const lines = countLines(body);
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-bench-"));
  try {
    const bench = await startIngestWorker(join(stateDir, "bench"));
    let benchRun: Awaited<ReturnType<typeof measureRows>>;
    let digestChecks: OutputCheck[];
    try {
      benchRun = await measureRows(
        bench,
        ROWS.filter((row) => row.worker === "bench"),
        bodies,
        runs,
      );
      const discarding = ROWS.filter((row) => row.path(0) === "/drainpipe/discard");
      digestChecks = [];
      for (const row of discarding) digestChecks.push(await checkDiscardDigests(bench, row, bodies[row.body], body));
    } finally {
      await bench.stop();
    }
    const real = await startRealWorker(join(stateDir, "real"));
    let realRun: Awaited<ReturnType<typeof measureRows>>;
    let contentCheck: OutputCheck;
    try {
      realRun = await measureRows(
        real,
        ROWS.filter((row) => row.worker === "real"),
        bodies,
        runs,
      );
      contentCheck = await checkStoredContent(real, body);
    } finally {
      await real.stop();
    }
    const samples = new Map([...benchRun.samples, ...realRun.samples]);
    const idle = { bench: benchRun.idle, real: realRun.idle };
    const peaksReset = benchRun.peaksReset && realRun.peaksReset;
    const checks = [...benchRun.checks, ...digestChecks, ...realRun.checks, contentCheck];
    const msOf = (row: Row) => median(samples.get(row.name)!.map((sample) => sample.ms));
    const mbPerSecond = (row: Row) => bodies[row.body].length / MB / (msOf(row) / 1000);
    const floorRead = mbPerSecond(ROWS[0]!);
    const rows = ROWS.map((row) => {
      const ms = msOf(row);
      const cpuMs = median(samples.get(row.name)!.map((sample) => sample.cpuMs));
      return {
        row: row.name,
        "CPU ms per MB": significant(cpuMs / (bodies[row.body].length / MB)),
        "median ms": Math.round(ms),
        "MB/s": significant(mbPerSecond(row)),
        "numbers/s": row.name.startsWith("floor") ? "–" : Math.round(lines / (ms / 1000)),
        "× of body-read floor": significant(mbPerSecond(row) / floorRead),
        "peak RSS MB": significant(Math.max(...samples.get(row.name)!.map((sample) => sample.peak)) / MB),
        "idle RSS MB": significant(idle[row.worker] / MB),
        "samples ms": samples
          .get(row.name)!
          .map((sample) => Math.round(sample.ms))
          .join(", "),
      };
    });
    return {
      id: "http-ingest",
      title:
        `HTTP ingest of ${(body.length / MB).toFixed(1)} MB (${lines.toLocaleString("en")} primes) ` +
        "into local workerd",
      runtime: `workerd (wrangler unstable_dev), client: node ${process.versions.node} fetch`,
      columns: [
        "row",
        "CPU ms per MB",
        "median ms",
        "MB/s",
        "numbers/s",
        "× of body-read floor",
        "peak RSS MB",
        "idle RSS MB",
        "samples ms",
      ],
      rows,
      notes: [
        "Real HTTP over loopback (Node's fetch, Content-Length, no Expect: 100-continue). Per worker: one " +
          `untimed 1 MB request per row, then medians of ${runs} requests per row, rows interleaved round by ` +
          "round, each request once the workerd process is idle. The bench worker's five rows run first, then " +
          "the real worker's (one worker at a time, so that its workerd process is known).",
        "CPU ms per MB: the median over the timed requests of the workerd process's user + system time (all its " +
          "threads, /proc/<pid>/stat, 10 ms steps) from just before the request until the process is idle again, " +
          "per MB of the row's own body: what a deployed worker is billed and limited by, plus what workerd does " +
          "for it outside the isolate (receiving the body, background garbage collection).",
        `The non-canonical body (${bodies["non-canonical"].length.toLocaleString("en")} bytes) holds the same ` +
          "numbers with every line ended by \\r\\n, a leading zero on every 8th and a blank line after every 64th " +
          "(bench/workloads/non-canonical.ts); storing it stores the canonical body. × of body-read floor " +
          "compares MB/s, each row's over its own body.",
        "fused loop: scenario 3's parse, re-encode and rotate loop (bench/workloads/fused-split.ts) over the " +
          "body-read floor's reads; it knows only canonical input, so it is no upload path, only a floor for one.",
        "Peak RSS is VmHWM of the workerd process running the worker's code (wrangler's proxy workerd " +
          `excluded), ${peaksReset ? PEAK_RESET : PEAK_NOT_RESET}; idle RSS is after the warm-up. MB = 10^6 bytes.`,
        "Floors and the discarding pipeline run in bench/workers/ingest-worker.ts (the real upload route's " +
          "pipeline with a DiscardingStore); the local-R2 row is the real worker, POST /files/:name. Parts of " +
          "10 MiB everywhere.",
      ],
      speedups: ROWS.map((row) => ({ label: row.name, value: significant(mbPerSecond(row) / floorRead) })),
      checks,
    };
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** Scenario 4. */
export const scenario = defineScenario<HttpIngestOptions>({
  id: "http-ingest",
  title: "HTTP ingest",
  measures:
    "the workerd process's CPU ms per MB, time, MB/s and peak RSS of POSTing 100 MB of primes over real local " +
    "HTTP: to the real worker storing into local R2, to its upload pipeline storing into a discarding store (also " +
    "with the same numbers written non-canonically), to the fused parse-and-re-encode loop, and to two floors " +
    "(reading the body and nothing else; putting it to local R2 in 10 MiB pieces); the stored content and the " +
    "discarded parts' digests are checked against the canonical body.",
  why:
    "an upload's time is drainpipe's parsing plus the runtime's body reads plus storage: the floors show how much " +
    "of it drainpipe could still win, the CPU ms per MB what a deployed worker is billed and limited by, and the " +
    "peak RSS how much memory one large upload takes in workerd.",
  options: {
    bytes: "body size in bytes, cut at a line break (default 100,000,000)",
    runs: "timed requests per row, interleaved (default 3)",
  },
  quick: { bytes: 300_000, runs: 1 },
  run: async (options) => [await runHttpIngest(options)],
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
