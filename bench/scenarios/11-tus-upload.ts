/**
 * Scenario 11: a big file sent through tus (tus-js-client in Node with the settings the README recommends for the
 * Paid plan, `parallelUploads` 4 and 1), through the CLI's upload session (`--parallel` 4 and 1), and, up to the
 * worker's segment limit, as one POST, in the same run against the real worker in local workerd (issue 37).
 *
 * Run alone: `npx node bench/scenarios/11-tus-upload.ts [--count N] [--runs N]` (`--quick` for the quick run's
 * sizes, `--help` for the options).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "simple-statistics";
import { type RunningWorker, startRealWorker } from "../../harness/local-worker.ts";
import { openFileStream } from "../../src/cli/local-file.ts";
import { uploadInSegments } from "../../src/cli/segmented-upload.ts";
import { uploadFile } from "../../src/cli/upload/upload-file.ts";
import { WorkerClient } from "../../src/cli/worker-client.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult, Speedup } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { measureRequest } from "../workers/bench-worker.ts";
import { primesFile } from "../workloads/primes-file.ts";
import {
  type Digest,
  fileDigest,
  storedDigest,
  type TusUploadOutcome,
  tusUpload,
  writeLeadingLines,
} from "./11-tus-upload.clients.ts";

/** Options of scenario 11. */
export interface TusUploadScenarioOptions {
  /** How many primes the file holds (default 100,000,000: 1.04 GB). */
  count?: number;
  /** How many rounds of every row (default 3; the tables show medians). */
  runs?: number;
}

const MB = 1_000_000;

/** The installed tus-js-client's version, for the notes. */
const TUS_CLIENT_VERSION = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("tus-js-client/package.json"), "utf8")) as {
    version: string;
  }
).version;

/** One way of sending the file. */
interface Row {
  /** The table's label. */
  name: string;
  /** Short, for the stored file's name. */
  id: string;
  /** Who sends it. */
  kind: "session" | "tus" | "post";
  /** Requests in flight at once (segments, partial uploads); 1 for the POST. */
  parallel: number;
}

/** The rows, in the order of the table (each round starts one row later). */
const ROWS: readonly Row[] = [
  { name: "CLI session, --parallel 4", id: "session-4", kind: "session", parallel: 4 },
  { name: "tus-js-client, parallelUploads 4", id: "tus-4", kind: "tus", parallel: 4 },
  { name: "CLI session, --parallel 1", id: "session-1", kind: "session", parallel: 1 },
  { name: "tus-js-client, parallelUploads 1", id: "tus-1", kind: "tus", parallel: 1 },
  { name: "one POST of the leading lines", id: "post", kind: "post", parallel: 1 },
];

/** The CLI session row a row's ratios are relative to: the one with as many requests in flight. */
function sessionOf(row: Row): Row {
  return ROWS.find((other) => other.kind === "session" && other.parallel === row.parallel)!;
}

/** What one upload of one round measured. */
interface Sample {
  ms: number;
  cpuMs: number;
  clientCpuMs: number;
  peak: number;
  peakReset: boolean;
  /** Requests the upload took (segments of a session, tus-js-client's responses, 1 for the POST). */
  requests: number;
  /** Seconds of the final concatenation of a tus upload with partial uploads. */
  finalSeconds: number | undefined;
}

/** The inputs: the whole file and its leading lines, with their digests. */
interface Inputs {
  file: { path: string; size: number; digest: Digest };
  head: { path: string; size: number; digest: Digest };
}

/** Sends `row`'s upload of the inputs as `name`; resolves with the requests it took and what went wrong. */
async function send(
  row: Row,
  name: string,
  inputs: Inputs,
  worker: { client: WorkerClient; url: string; token: string },
  chunkBytes: number,
  segmentBytes: number | undefined,
): Promise<TusUploadOutcome> {
  const { file, head } = inputs;
  switch (row.kind) {
    case "session": {
      const { segments } = await uploadInSegments(worker.client, file, {
        name,
        segmentBytes,
        parallel: row.parallel,
        progress: false,
      });
      return { requests: segments, refusals: [] };
    }
    case "tus":
      return tusUpload(file.path, {
        url: worker.url,
        token: worker.token,
        name,
        chunkSize: chunkBytes,
        parallelUploads: row.parallel,
      });
    case "post":
      await uploadFile(worker.client, await openFileStream(head.path), { name, progress: false });
      return { requests: 1, refusals: [] };
  }
}

/** Checks the stored file `name` against what `row` sent, then removes it (so disk use stays one file). */
async function checkAndRemove(client: WorkerClient, row: Row, name: string, inputs: Inputs): Promise<OutputCheck> {
  const expected = row.kind === "post" ? inputs.head.digest : inputs.file.digest;
  const { manifest, digest } = await storedDigest(client, name);
  await client.remove(name);
  const ok =
    digest.sha256 === expected.sha256 &&
    digest.bytes === expected.bytes &&
    manifest.totals.bytes === expected.bytes &&
    manifest.totals.numbers === expected.lines;
  return {
    variant: `${row.name} (${name})`,
    ok,
    detail:
      `stored content SHA-256 ${digest.sha256.slice(0, 16)}… of ${digest.bytes} bytes, manifest ` +
      `${manifest.totals.numbers} numbers, ${manifest.totals.bytes} bytes; sent ${expected.sha256.slice(0, 16)}… of ` +
      `${expected.bytes} bytes, ${expected.lines} numbers`,
  };
}

/** Measures every row `runs` times against `worker`, each upload checked. */
async function measureRows(
  worker: RunningWorker,
  inputs: Inputs,
  runs: number,
  chunkBytes: number,
  segmentBytes: number | undefined,
): Promise<{ samples: Map<Row, Sample[]>; checks: OutputCheck[]; refusals: string[] }> {
  const token = worker.headers.Authorization!.slice("Bearer ".length);
  const client = new WorkerClient(worker.url, token);
  const target = { client, url: worker.url, token };
  const samples = new Map<Row, Sample[]>(ROWS.map((row) => [row, []]));
  const checks: OutputCheck[] = [];
  const refusals: string[] = [];
  for (let round = 0; round < runs; round++) {
    for (let step = 0; step < ROWS.length; step++) {
      const row = ROWS[(round + step) % ROWS.length]!;
      const name = `tus-bench-${row.id}-${round}`;
      const measured = await measureRequest(worker, row.name, async () => {
        const before = process.cpuUsage();
        const sent = await send(row, name, inputs, target, chunkBytes, segmentBytes);
        const { user, system } = process.cpuUsage(before);
        return { ...sent, clientCpuMs: (user + system) / 1000 };
      });
      const { ms, cpuMs, peak, peakReset, value } = measured;
      const { clientCpuMs, requests, finalSeconds } = value;
      samples.get(row)!.push({ ms, cpuMs, peak, peakReset, clientCpuMs, requests, finalSeconds });
      refusals.push(...value.refusals.map((refusal) => `${row.name}, round ${round + 1}: ${refusal}`));
      const check = await checkAndRemove(client, row, name, inputs);
      if (value.refusals.length > 0) {
        check.ok = false;
        check.detail += `; ${value.refusals.length} refused or retried request(s)`;
      }
      checks.push(check);
    }
  }
  return { samples, checks, refusals };
}

/** Runs scenario 11. */
async function runTusUpload(options: TusUploadScenarioOptions, quick: boolean): Promise<ScenarioResult[]> {
  const count = options.count ?? 100_000_000;
  const runs = options.runs ?? 3;
  const file = await primesFile(count);
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-tus-bench-"));
  let measured: Awaited<ReturnType<typeof measureRows>>;
  let inputs: Inputs;
  let limitBytes: number;
  try {
    const worker = await startRealWorker(stateDir);
    try {
      const client = new WorkerClient(worker.url, worker.headers.Authorization!.slice("Bearer ".length));
      const limits = await client.limits();
      if (limits === undefined) throw new Error("Cannot run the tus scenario: the worker answers no GET /limits");
      // The full run sends what the README recommends: PATCHes, segments and the POST of the worker's segment limit
      // (95 MB: 11 segments of 1.04 GB). A quick run cuts its tiny file into 11 the same way.
      limitBytes = quick ? Math.ceil(file.size / 11) : limits.maxSegmentBytes;
      const segmentBytes = quick ? limitBytes : undefined;
      const headPath = join(stateDir, "leading-lines.txt");
      const headSize = await writeLeadingLines(file.path, limitBytes, headPath);
      inputs = {
        file: { ...file, digest: await fileDigest(file.path) },
        head: { path: headPath, size: headSize, digest: await fileDigest(headPath) },
      };
      measured = await measureRows(worker, inputs, runs, limitBytes, segmentBytes);
    } finally {
      await worker.stop();
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }

  const { samples, checks, refusals } = measured;
  const sizeOf = (row: Row): number => (row.kind === "post" ? inputs.head.size : inputs.file.size);
  const medianOf = (row: Row, key: "ms" | "cpuMs" | "clientCpuMs" | "requests"): number =>
    median(samples.get(row)!.map((sample) => sample[key]));
  const mbPerSecond = (row: Row): number => sizeOf(row) / MB / (medianOf(row, "ms") / 1000);
  const cpuPerMb = (row: Row): number => medianOf(row, "cpuMs") / (sizeOf(row) / MB);
  const peaksReset = [...samples.values()].flat().every((sample) => sample.peakReset);
  const rows = ROWS.map((row) => {
    const session = sessionOf(row);
    const own = samples.get(row)!;
    return {
      row: row.name,
      MB: significant(sizeOf(row) / MB),
      "CPU ms per MB": significant(cpuPerMb(row)),
      "CPU per MB × session": significant(cpuPerMb(row) / cpuPerMb(session)),
      seconds: significant(medianOf(row, "ms") / 1000),
      "MB/s": significant(mbPerSecond(row)),
      "MB/s × session": significant(mbPerSecond(row) / mbPerSecond(session)),
      requests: medianOf(row, "requests"),
      "worker CPU s": significant(medianOf(row, "cpuMs") / 1000),
      "client CPU s": significant(medianOf(row, "clientCpuMs") / 1000),
      "workerd peak RSS MB": peaksReset ? Math.round(Math.max(...own.map((sample) => sample.peak)) / MB) : "–",
      "samples s": own.map((sample) => significant(sample.ms / 1000)).join(", "),
    };
  });
  const baseline = ROWS[0]!;
  const speedups: Speedup[] = ROWS.filter((row) => row !== baseline && row.kind !== "post").map((row) => ({
    label: row.name,
    value: medianOf(baseline, "ms") / medianOf(row, "ms"),
  }));
  const fileMb = significant(inputs.file.size / MB);
  const finals = ROWS.flatMap((row) => {
    const seconds = samples.get(row)!.flatMap((sample) => sample.finalSeconds ?? []);
    if (seconds.length === 0) return [];
    const share = (median(seconds) * 1000) / medianOf(row, "ms");
    return [`${row.name}: ${significant(median(seconds))} s (median; ${Math.round(share * 100)} % of the upload)`];
  });
  return [
    {
      id: "tus-upload",
      title:
        `the first ${count.toLocaleString("en")} primes (${fileMb} MB) through tus, through the CLI's upload ` +
        `session and (its first ${significant(inputs.head.size / MB)} MB) as one POST`,
      runtime:
        `workerd (wrangler unstable_dev), clients: tus-js-client and the CLI's upload code on node ` +
        process.versions.node,
      columns: [
        "row",
        "MB",
        "CPU ms per MB",
        "CPU per MB × session",
        "seconds",
        "MB/s",
        "MB/s × session",
        "requests",
        "worker CPU s",
        "client CPU s",
        "workerd peak RSS MB",
        "samples s",
      ],
      rows,
      notes: [
        `Medians of ${runs} round${runs === 1 ? "" : "s"}, rows one after another against one worker with local R2 ` +
          "(each round starts one row later); worker CPU is the workerd process's user + system time from the " +
          "upload's start until it is idle again; client CPU is this Node process's; peak RSS (the highest of the " +
          "rounds) is reset before each upload.",
        `tus-js-client ${TUS_CLIENT_VERSION} from an fs.ReadStream of the file (its Node file source) with ` +
          `chunkSize ${limitBytes.toLocaleString("en")} ` +
          `(${quick ? "a quick run's eleventh of the file" : "GET /limits maxSegmentBytes"}), ` +
          "metadata name and filename, the bearer token as a header and its default retries; parallelUploads 4 " +
          "sends four partial uploads and concatenates them. requests counts its responses (creations, PATCHes, " +
          "the final concatenation); for a CLI session, its segments.",
        "The CLI session cuts the file into segments of the worker's limit at line breaks " +
          `(${quick ? "a quick run's eleventh of the file" : "95 MB by default"}); the POST sends the file's ` +
          `leading lines up to that limit (${inputs.head.size.toLocaleString("en")} bytes) with the CLI's ` +
          "upload code. The × session columns compare a row with the CLI session with as many requests in " +
          "flight (the POST with --parallel 1); the chart's bars are the CLI session --parallel 4's time over a " +
          "row's.",
        "Every upload's stored content is read back and its SHA-256, size and manifest totals compared with what " +
          "was sent; a tus row also fails its check when the worker refused a request or tus-js-client retried one.",
        ...(finals.length > 0
          ? [
              "The final concatenation (Upload-Concat: final), the one request in which the worker parses and stores " +
                `the whole file from the partial uploads' raw pieces, took ${finals.join("; ")}.`,
            ]
          : []),
        ...(refusals.length > 0 ? [`Refused or retried requests: ${refusals.join("; ")}.`] : []),
      ],
      speedups,
      checks,
    },
  ];
}

export const scenario = defineScenario<TusUploadScenarioOptions>({
  id: "tus-upload",
  title: "tus upload",
  measures:
    "a big primes file sent to the real worker in local workerd through tus (tus-js-client in Node with the " +
    "README's settings: chunkSize the worker's segment limit, parallelUploads 4 and 1), through the CLI's upload " +
    "session (--parallel 4 and 1) and, up to that limit, as one POST: seconds, MB/s, the worker's CPU ms per MB " +
    "and its peak RSS, with ratios to the CLI session.",
  why:
    "tus lets browsers and the tus clients of every language send files of any size (issue 37), but it cuts " +
    "PATCHes anywhere, inside lines too, and concatenates partial uploads: this shows what that costs the worker " +
    "beside the CLI's line-aligned segments and a single POST.",
  options: {
    count: "how many primes the file holds (default 100,000,000: 1.04 GB)",
    runs: "rounds of every row; the tables show medians (default 3)",
  },
  quick: { count: 300_000, runs: 1 },
  run: (options, context) => runTusUpload(options, context.quick),
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
