/**
 * Scenario 6: a big file through an upload session, `--parallel` 1, 2 and 4, against one `POST` of the whole
 * file, in the same run against the real worker in local workerd (the CLI's own upload code, in this process).
 *
 * Run alone: `npx node bench/scenarios/06-segmented-upload.ts [--count N]` (`--quick` for the quick run's sizes,
 * `--help` for the options).
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRealWorker } from "../../harness/local-worker.ts";
import { openFileStream } from "../../src/cli/local-file.ts";
import { uploadInSegments } from "../../src/cli/segmented-upload.ts";
import { uploadFile } from "../../src/cli/upload/upload-file.ts";
import { WorkerClient } from "../../src/cli/worker-client.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";
import { measureRequest } from "../workers/bench-worker.ts";
import { primesFile } from "../workloads/primes-file.ts";

/** Options of {@linkcode runSegmentedUpload}. */
export interface SegmentedUploadOptions {
  /** How many primes the file holds (default 100,000,000: 1.04 GB). */
  count?: number;
}

const MB = 1_000_000;

/** The rows: one POST, then sessions with 1, 2 and 4 segments in flight. */
const ROWS = [
  { name: "one POST of the whole file", parallel: 0 },
  { name: "session, --parallel 1", parallel: 1 },
  { name: "session, --parallel 2", parallel: 2 },
  { name: "session, --parallel 4", parallel: 4 },
] as const;

/** Runs scenario 6. */
async function runSegmentedUpload(options: SegmentedUploadOptions, quick: boolean): Promise<ScenarioResult[]> {
  const count = options.count ?? 100_000_000;
  const file = await primesFile(count);
  // The full run cuts at the worker's limit (95 MB: 11 segments of 1.04 GB); a quick run forces 11 segments too.
  const segmentBytes = quick ? Math.ceil(file.size / 11) : undefined;
  const stateDir = await mkdtemp(join(tmpdir(), "drainpipe-segments-bench-"));
  const rows: Record<string, string | number>[] = [];
  const checks: OutputCheck[] = [];
  let perSegmentCpuMs: number | undefined;
  let segmentCount = 1;
  const worker = await startRealWorker(stateDir);
  try {
    const client = new WorkerClient(worker.url, worker.headers.Authorization?.slice("Bearer ".length));
    for (const [index, row] of ROWS.entries()) {
      const name = `segments-${index}`;
      const upload = async (): Promise<{ manifest: Manifest; segments: number }> => {
        if (row.parallel > 0) {
          return uploadInSegments(client, file, { name, segmentBytes, parallel: row.parallel, progress: false });
        }
        const { manifest } = await uploadFile(client, await openFileStream(file.path), { name, progress: false });
        return { manifest, segments: 1 };
      };
      const { ms, cpuMs, peak, peakReset, value } = await measureRequest(worker, row.name, upload);
      const { manifest, segments } = value;
      const seconds = ms / 1000;
      if (row.parallel === 1) {
        perSegmentCpuMs = cpuMs / segments;
        segmentCount = segments;
      }
      rows.push({
        row: row.name,
        segments,
        seconds: significant(seconds),
        "MB/s": significant(file.size / MB / seconds),
        "worker CPU s": significant(cpuMs / 1000),
        "CPU ms per MB": significant(cpuMs / (file.size / MB)),
        "workerd peak RSS MB": peakReset ? Math.round(peak / MB) : "–",
      });
      const ok = manifest.totals.bytes === file.size && manifest.totals.numbers === count;
      checks.push({
        variant: row.name,
        ok,
        detail: `${manifest.totals.numbers} numbers, ${manifest.totals.bytes} bytes stored of ${count}, ${file.size}`,
      });
    }
  } finally {
    await worker.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
  const onWorkers =
    perSegmentCpuMs === undefined
      ? []
      : [
          `From the --parallel 1 row: ${Math.round(perSegmentCpuMs)} ms of worker CPU per segment. On Workers each ` +
            "segment request runs in an isolate of its own, so K segments in flight take about ceil(" +
            `${segmentCount} / K) × that in CPU-bound wall time: ${[1, 2, 4, 8]
              .map((k) => `K=${k}: ${significant((Math.ceil(segmentCount / k) * perSegmentCpuMs) / 1000)} s`)
              .join(", ")} (network and R2 writes aside). Locally one workerd process on 2 cores serves every ` +
            "request, so the local gain is bounded by those cores.",
        ];
  return [
    {
      id: "segmented-upload",
      title:
        `the first ${count.toLocaleString("en")} primes (${significant(file.size / MB)} MB) ` +
        "as one POST and as an upload session",
      runtime: `workerd (wrangler unstable_dev), client: the CLI's upload code on node ${process.versions.node}`,
      columns: ["row", "CPU ms per MB", "segments", "seconds", "MB/s", "worker CPU s", "workerd peak RSS MB"],
      rows,
      notes: [
        "Rows one after another against one worker with local R2; worker CPU is the workerd process's user + system " +
          "time from the request's start until it is idle again; peak RSS is reset before each row.",
        ...onWorkers,
      ],
      speedups: [],
      checks,
    },
  ];
}

export const scenario = defineScenario<SegmentedUploadOptions>({
  id: "segmented-upload",
  title: "Segmented upload",
  measures:
    "a big primes file uploaded through an upload session with 1, 2 and 4 segments in flight and as one POST, " +
    "against the real worker in local workerd: seconds, MB/s, the worker's CPU ms per MB and its peak RSS.",
  why:
    "a deployed worker refuses bodies over the plan's limit, so big files must go as sessions; this measures what " +
    "the segmentation costs and, from the CPU per segment, what parallel segments give on Workers.",
  options: { count: "how many primes the file holds (default 100,000,000: 1.04 GB)" },
  quick: { count: 300_000 },
  run: (options, context) => runSegmentedUpload(options, context.quick),
});

if (import.meta.main) await runAlone(import.meta.filename, scenario);
