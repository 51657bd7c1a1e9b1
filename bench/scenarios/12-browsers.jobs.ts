/**
 * Counts the promise work drainpipe does per chunk on scenario 12's slow Firefox rows, a count that does not depend
 * on the machine's load: the page replaces `Promise` and `Promise.prototype.then` with counting wrappers before
 * drainpipe's bundle loads. drainpipe captures both when its module loads, so every promise it constructs and every
 * reaction it adds goes through them (a reaction's derived promise is not counted as a promise; the shapes' own
 * `await`s use the engine's intrinsics and are not counted). Each shape runs once, and the counts are divided by
 * the chunks it moved. In Firefox each reaction is a job the host schedules (some microseconds each there), so
 * these are the costs its profile shows.
 *
 * `npx node bench/scenarios/12-browsers.jobs.ts [--count 10000] [--shape <text>]…`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { findBrowser, launchBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { htmlPage, script, startServer } from "../../harness/page-server.ts";
import { MATRIX_SHAPES } from "../workloads/matrix-shapes.ts";
import { benchPageBundle } from "./12-browsers.bundle.ts";
import type { BenchGlobals, BrowserBenchReport } from "./12-browsers.page.ts";

/** The first script of the page: counting wrappers, installed before drainpipe's bundle captures the intrinsics. */
const COUNTING = `
(() => {
  const counts = { promises: 0, reactions: 0 };
  const NativePromise = Promise;
  const then = NativePromise.prototype.then;
  NativePromise.prototype.then = function (onFulfilled, onRejected) {
    counts.reactions++;
    return then.call(this, onFulfilled, onRejected);
  };
  // A proxy, not a subclass: the promises stay the engine's own, so awaiting them takes the usual path.
  globalThis.Promise = new Proxy(NativePromise, {
    construct(target, args) {
      counts.promises++;
      return Reflect.construct(target, args);
    },
  });
  globalThis.promiseCounts = counts;
})();
`;

const DEFAULT_SHAPES = [
  "writer loop, await every write",
  "tee, both branches read",
  "byte stream, BYOB reads of 4 KiB, 64 B enqueues",
  "reader loop, 1 chunk per pull",
  "pipeTo, 1 per pull",
];

const { values } = parseArgs({
  options: { count: { type: "string", default: "10000" }, shape: { type: "string", multiple: true } },
});
const count = Number(values.count);
const shapes = values.shape ?? DEFAULT_SHAPES;
const chromium = findBrowser("chromium");
if (chromium === undefined) {
  console.log(missingBrowserLine("chromium", "bench/scenarios/12-browsers.jobs.ts"));
  process.exit(0);
}
const server = await startServer();
server.files.set("/jobs/", htmlPage(["/jobs/counting.js", "/jobs/bench.js"]));
server.files.set("/jobs/counting.js", script(COUNTING));
server.files.set("/jobs/bench.js", script(await benchPageBundle("drainpipe")));
const browser = await launchBrowser("chromium", chromium);
try {
  console.log(`drainpipe's own promises and reactions per chunk, count ${count} (the shapes' awaits not counted):`);
  for (const name of shapes) {
    const shape = MATRIX_SHAPES.find((candidate) => candidate.name.includes(name));
    if (shape === undefined) throw new Error(`Cannot count: no shape "${name}"`);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/jobs/`);
      const counted: { report: BrowserBenchReport; counts: { promises: number; reactions: number } } =
        await page.evaluate(
          async (options) => {
            const globals = globalThis as unknown as BenchGlobals & {
              promiseCounts: { promises: number; reactions: number };
            };
            const before = { ...globals.promiseCounts };
            const report = await globals.benchInPage(options);
            const after = globals.promiseCounts;
            return {
              report,
              counts: { promises: after.promises - before.promises, reactions: after.reactions - before.reactions },
            };
          },
          { matrixCount: count, runs: 0, pipeCount: 1, pipeSamples: 1, only: [shape.name] },
        );
      const failure = counted.report.matrix[0]?.failure;
      if (failure !== undefined) throw new Error(`Cannot count ${shape.name}: ${failure}`);
      const chunks = shape.chunks(count);
      const per = (n: number): string => (n / chunks).toFixed(2);
      console.log(
        `  ${shape.name}: ${per(counted.counts.promises)} promises, ${per(counted.counts.reactions)} reactions`,
      );
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
