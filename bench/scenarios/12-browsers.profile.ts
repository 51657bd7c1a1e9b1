/**
 * Profiles shapes of scenario 12 in Firefox with its own sampling profiler (Gecko's, started with the process
 * through `MOZ_PROFILER_STARTUP` and written at shutdown through `MOZ_PROFILER_SHUTDOWN`, 1 ms interval): the page
 * runs the chosen matrix shapes with one implementation (`12-browsers.page.ts`, its bundle unminified so that
 * functions keep their names), then the profile of the content process that ran them is read and summed.
 *
 * Prints, for the samples of that process's main thread that were in the bundle's code: the functions with the
 * most self time (the deepest frame of the bundle on the stack), and the ones with the most total time (anywhere
 * on the stack), each as a share of those samples.
 *
 * `npx node bench/scenarios/12-browsers.profile.ts --shape "writer loop, await every" [--shape …]
 * [--implementation drainpipe|native] [--count 200000] [--runs 5] [--top 25]`
 *
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import puppeteer from "puppeteer-core";
import { findBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { htmlPage, script, startServer } from "../../harness/page-server.ts";
import { benchPageBundle } from "./12-browsers.bundle.ts";
import type { BenchGlobals, BrowserBenchReport } from "./12-browsers.page.ts";

/** The parts of a Gecko profile thread this reads (format version 34, as Firefox 153 writes it). */
interface GeckoThread {
  name: string;
  samples: { schema: { stack: number }; data: (number | null)[][] };
  stackTable: { schema: { prefix: number; frame: number }; data: (number | null)[][] };
  frameTable: { schema: { location: number }; data: (number | string | null)[][] };
  stringTable: string[];
}

/** A Gecko profile: the parent process's threads and every child process's. */
interface GeckoProfile {
  threads: GeckoThread[];
  processes: GeckoProfile[];
}

const { values } = parseArgs({
  options: {
    shape: { type: "string", multiple: true },
    implementation: { type: "string", default: "drainpipe" },
    count: { type: "string", default: "200000" },
    runs: { type: "string", default: "5" },
    top: { type: "string", default: "25" },
  },
});
const shapes = values.shape ?? [];
if (shapes.length === 0) throw new Error("Cannot profile: name at least one shape with --shape <text>");
const firefox = findBrowser("firefox");
if (firefox === undefined) {
  console.log(missingBrowserLine("firefox", "bench/scenarios/12-browsers.profile.ts"));
  process.exit(0);
}

const server = await startServer();
server.files.set("/profile/", htmlPage(["/profile/bench.js"]));
server.files.set("/profile/bench.js", script(await benchPageBundle(values.implementation)));
const directory = mkdtempSync(join(tmpdir(), "drainpipe-profile-"));
const profileFile = join(directory, "profile.json");
let report: BrowserBenchReport;
try {
  const browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: firefox,
    headless: true,
    // As harness/browsers.ts launches it: without async stacks, which a driven Firefox records at each promise.
    extraPrefsFirefox: { "javascript.options.asyncstack": false },
    env: {
      ...process.env,
      MOZ_PROFILER_STARTUP: "1",
      MOZ_PROFILER_SHUTDOWN: profileFile,
      MOZ_PROFILER_STARTUP_FEATURES: "js,stackwalk",
      MOZ_PROFILER_STARTUP_INTERVAL: "1",
      MOZ_PROFILER_STARTUP_ENTRIES: "100000000",
    },
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/profile/`);
    const sizes = { matrixCount: Number(values.count), runs: Number(values.runs), pipeCount: 1, pipeSamples: 1 };
    report = await page.evaluate((options) => (globalThis as unknown as BenchGlobals).benchInPage(options), {
      ...sizes,
      only: shapes,
    });
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}

const profile = JSON.parse(readFileSync(profileFile, "utf8")) as GeckoProfile;
rmSync(directory, { recursive: true, force: true });
for (const shape of report.matrix) {
  const rate =
    shape.bestMs === undefined ? shape.failure : `${Math.round(Number(values.count) / (shape.bestMs / 1000))}`;
  console.log(`${shape.shape}: best of ${values.runs} ${shape.bestMs?.toFixed(1)} ms (${rate} chunks/s of count)`);
}

/** A frame of the bundle, as Gecko names it: `name (http://…/profile/bench.js:line:column)[category]`. */
const BUNDLE_FRAME = /^(.*?) \(.*\/profile\/bench\.js:(\d+):\d+\)(\[\d+\])?$/;

/** The bundle's frames of one sample, leaf first, as `name:line`. */
function bundleFrames(thread: GeckoThread, stack: number | null): string[] {
  const { prefix, frame } = thread.stackTable.schema;
  const frames: string[] = [];
  for (let index = stack; index !== null; index = thread.stackTable.data[index]![prefix] as number | null) {
    const frameIndex = thread.stackTable.data[index]![frame] as number;
    const location =
      thread.stringTable[thread.frameTable.data[frameIndex]![thread.frameTable.schema.location] as number];
    const match = location === undefined ? null : BUNDLE_FRAME.exec(location);
    if (match) frames.push(`${match[1] || "(anonymous)"}:${match[2]}`);
  }
  return frames;
}

const threads = [profile, ...profile.processes].flatMap((process) => process.threads);
let best: { thread: GeckoThread; samples: string[][] } | undefined;
for (const thread of threads) {
  const samples = thread.samples.data
    .map((sample) => bundleFrames(thread, sample[thread.samples.schema.stack] as number | null))
    .filter((frames) => frames.length > 0);
  if (best === undefined || samples.length > best.samples.length) best = { thread, samples };
}
if (best === undefined || best.samples.length === 0) throw new Error("Cannot summarise: no sample ran the bundle");
const self = new Map<string, number>();
const total = new Map<string, number>();
for (const frames of best.samples) {
  self.set(frames[0]!, (self.get(frames[0]!) ?? 0) + 1);
  for (const name of new Set(frames)) total.set(name, (total.get(name) ?? 0) + 1);
}
const top = Number(values.top);
const share = (count: number): string => `${((100 * count) / best!.samples.length).toFixed(1).padStart(5)} %`;
console.log(`\n${best.samples.length} samples (1 ms) in the bundle, thread ${best.thread.name}`);
console.log("self time (deepest bundle frame):");
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${share(count)}  ${name}`);
console.log("total time (anywhere on the stack):");
for (const [name, count] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${share(count)}  ${name}`);
