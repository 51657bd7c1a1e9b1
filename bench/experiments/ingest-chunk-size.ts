/**
 * Experiment (not a registered scenario): the read size behind `DEFAULT_CHUNK_SIZE` in
 * `src/streams/adapters/sized-byte-stream.ts`. POSTs a large body over local HTTP to a workerd worker (through
 * Miniflare) that reads it with fromNativeStream at several chunk sizes, and prints reads per MiB and MB/s side
 * by side; then the same reads of a request body the worker builds in memory (no network, so the read path's own
 * cost).
 * Run: `npm run bench:read-size -- [--mib 100] [--rounds 5]`.
 * @module
 */

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { markdownTable } from "markdown-table";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { median } from "simple-statistics";

const MiB = 1024 * 1024;
const { values: args } = parseArgs({
  options: { mib: { type: "string", default: "100" }, rounds: { type: "string", default: "5" } },
});
const sizeMiB = Number(args.mib);
const rounds = Number(args.rounds);
if (!(sizeMiB > 0) || !(rounds > 0)) throw new Error("Cannot run: --mib and --rounds must be positive numbers");

interface WorkerReport {
  mode: string;
  chunk: number;
  bytes: number;
  reads: number;
  nativeReads: number;
  workerMs: number;
}

const bundle = await build({
  entryPoints: [fileURLToPath(new URL("./ingest-chunk-size-worker.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  write: false,
  target: "es2022",
});
const mf = new Miniflare(
  convertV4MiniflareOptions({ modules: true, script: bundle.outputFiles[0]!.text, compatibilityDate: "2026-11-01" }),
);
const base = await mf.ready;

const body = new Uint8Array(sizeMiB * MiB);
for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;

const readers = [
  { label: "native default reader", query: "mode=native" },
  { label: "sized 64 KiB", query: `mode=sized&chunk=${64 * 1024}` },
  { label: "sized 256 KiB", query: `mode=sized&chunk=${256 * 1024}` },
  { label: "sized 1 MiB", query: `mode=sized&chunk=${MiB}` },
  { label: "pooled 256 KiB", query: `mode=pooled&chunk=${256 * 1024}` },
  { label: "pooled 1 MiB", query: `mode=pooled&chunk=${MiB}` },
];
const configs = [
  ...readers.map(({ label, query }) => ({ label: `http: ${label}`, query, upload: body })),
  ...readers.map(({ label, query }) => ({
    label: `memory: ${label}`,
    query: `${query}&memory=${body.length}`,
    upload: undefined,
  })),
];

const samples = new Map<string, { clientMs: number; report: WorkerReport }[]>();
for (let round = 0; round < rounds; round++) {
  for (const { label, query, upload } of configs) {
    const started = performance.now();
    const response = await fetch(new URL(`/?${query}`, base), { method: "POST", body: upload ?? null });
    const report = (await response.json()) as WorkerReport;
    const clientMs = performance.now() - started;
    if (report.bytes !== body.length) throw new Error(`${label}: worker saw ${report.bytes} bytes of ${body.length}`);
    samples.set(label, [...(samples.get(label) ?? []), { clientMs, report }]);
  }
}
await mf.dispose();

const mb = body.length / 1e6;
const rows = configs.map(({ label }) => {
  const runs = samples.get(label)!;
  const { reads, nativeReads } = runs[0]!.report;
  const workerMs = median(runs.map((run) => run.report.workerMs));
  const clientMs = median(runs.map((run) => run.clientMs));
  return [
    label,
    (reads / sizeMiB).toFixed(1),
    (nativeReads / sizeMiB).toFixed(1),
    (mb / (workerMs / 1000)).toFixed(0),
    (mb / (clientMs / 1000)).toFixed(0),
  ];
});
console.log(`${sizeMiB} MiB POST over local HTTP into workerd, ${rounds} rounds interleaved, medians`);
console.log(
  markdownTable([["config", "reads/MiB", "native reads/MiB", "worker MB/s", "end-to-end MB/s"], ...rows], {
    align: ["l", "r", "r", "r", "r"],
  }),
);
