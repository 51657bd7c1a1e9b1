/**
 * A/B of drainpipe's promise plumbing in the browsers, for scenario 12's slow rows: the same matrix shapes run with
 * drainpipe bundled as it is (`as is`) and with one internal helper swapped at bundle time (the sources are not
 * changed; an esbuild plugin rewrites one function of `src/streams/base/promise-helpers.ts` in the bundle):
 *
 * - `queueMicrotask`: `queueMicrotaskInternal` calls the host's `queueMicrotask` instead of reacting to a resolved
 *   promise (`then` on it allocates a derived promise per job);
 * - `await hop`: `queueMicrotaskInternal` calls an async function that awaits `undefined`, then the callback (one
 *   job, as before; engines take a fast path for `await` of a value that is not a promise);
 * - `withResolvers`: `Deferred` takes its promise and functions from `Promise.withResolvers()` instead of an
 *   executor closure.
 *
 * Each variant runs in a browser context of its own, rounds interleaved; a cell is the median over rounds of each
 * round's best run (`performance.now()` in the page), and the ratio is the variant's chunks/s ÷ as-is's.
 *
 * `npx node bench/scenarios/12-browsers.ab.ts [--browser firefox] [--count 100000] [--rounds 3] [--runs 3]
 * [--shape <text>]…` (default shapes: the writer loop awaiting each write, tee with both branches read, BYOB reads
 * of 4 KiB, the reader loop and pipeTo with one chunk per pull).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Plugin } from "esbuild";
import { median } from "simple-statistics";
import { BROWSERS, type BrowserName, findBrowser, launchBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { htmlPage, script, startServer } from "../../harness/page-server.ts";
import { benchPageBundle } from "./12-browsers.bundle.ts";
import type { BenchGlobals, BrowserBenchReport } from "./12-browsers.page.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const HELPERS = resolve(ROOT, "src/streams/base/promise-helpers.ts");

/** A variant: the text of promise-helpers.ts it replaces, and with what (nothing for as-is). */
const VARIANTS: Record<string, { from: string; to: string } | undefined> = {
  "as is": undefined,
  queueMicrotask: {
    from: "export function queueMicrotaskInternal(callback: () => void): void {\n  reactionToResolved(callback);\n}",
    to: "export function queueMicrotaskInternal(callback: () => void): void {\n  queueMicrotask(callback);\n}",
  },
  "await hop": {
    from: "export function queueMicrotaskInternal(callback: () => void): void {\n  reactionToResolved(callback);\n}",
    to:
      "export function queueMicrotaskInternal(callback: () => void): void {\n  void hop(callback);\n}\n" +
      "async function hop(callback: () => void): Promise<void> {\n  await undefined;\n  callback();\n}",
  },
  withResolvers: {
    from:
      "  constructor() {\n    this.promise = new PromiseCtor<T>((resolve, reject) => {\n" +
      "      this.resolve = resolve;\n      this.reject = reject;\n    });\n  }",
    to:
      "  constructor() {\n    const { promise, resolve, reject } = PromiseCtor.withResolvers<T>();\n" +
      "    this.promise = promise;\n    this.resolve = resolve;\n    this.reject = reject;\n  }",
  },
};

const DEFAULT_SHAPES = [
  "writer loop, await every write",
  "tee, both branches read",
  "byte stream, BYOB reads of 4 KiB, 64 B enqueues",
  "reader loop, 1 chunk per pull",
  "pipeTo, 1 per pull",
];

/** Rewrites promise-helpers.ts as `variant` says; throws when its text is not there any more. */
function rewrite(name: string): Plugin {
  return {
    name: `variant ${name}`,
    setup(plugin) {
      plugin.onLoad({ filter: /promise-helpers\.ts$/ }, (args) => {
        const change = VARIANTS[name];
        const text = readFileSync(args.path, "utf8");
        if (change === undefined || args.path !== HELPERS) return { contents: text, loader: "ts" };
        if (!text.includes(change.from))
          throw new Error(`Cannot build variant ${name}: its text changed in ${HELPERS}`);
        return { contents: text.replace(change.from, change.to), loader: "ts" };
      });
    },
  };
}

const { values } = parseArgs({
  options: {
    browser: { type: "string", multiple: true },
    count: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    shape: { type: "string", multiple: true },
  },
});
const browsers = (values.browser ?? [...BROWSERS]) as BrowserName[];
const only = values.shape ?? DEFAULT_SHAPES;
const count = Number(values.count);
const server = await startServer();
try {
  for (const name of Object.keys(VARIANTS)) {
    const folder = `/${encodeURIComponent(name)}/`;
    server.files.set(folder, htmlPage([`${folder}bench.js`]));
    server.files.set(`${folder}bench.js`, script(await benchPageBundle("drainpipe", [rewrite(name)])));
  }
  for (const browserName of browsers) {
    const binary = findBrowser(browserName);
    if (binary === undefined) {
      console.log(missingBrowserLine(browserName, "bench/scenarios/12-browsers.ab.ts"));
      continue;
    }
    const browser = await launchBrowser(browserName, binary);
    /** Best ms per round, by variant then shape. */
    const samples = new Map<string, Map<string, number[]>>();
    try {
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const name of Object.keys(VARIANTS)) {
          const context = await browser.newContext();
          try {
            const page = await context.newPage();
            await page.goto(`${server.origin}/${encodeURIComponent(name)}/`);
            const sizes = { matrixCount: count, runs: Number(values.runs), pipeCount: 1, pipeSamples: 1, only };
            const report: BrowserBenchReport = await page.evaluate(
              (options) => (globalThis as unknown as BenchGlobals).benchInPage(options),
              sizes,
            );
            for (const shape of report.matrix) {
              if (shape.bestMs === undefined) throw new Error(`${name}, ${shape.shape}: ${shape.failure}`);
              const byShape = samples.get(name) ?? new Map<string, number[]>();
              byShape.set(shape.shape, [...(byShape.get(shape.shape) ?? []), shape.bestMs]);
              samples.set(name, byShape);
            }
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      await browser.close();
    }
    console.log(
      `\n${browser.version}: count ${count}, median over ${values.rounds} rounds of the best of ${values.runs}`,
    );
    const base = samples.get("as is")!;
    for (const [shape, times] of base) {
      const cells = [...samples].map(([name, byShape]) => {
        const ms = median(byShape.get(shape)!);
        return `${name} ${ms.toFixed(1)} ms (×${(median(times) / ms).toFixed(2)})`;
      });
      console.log(`  ${shape}: ${cells.join(", ")}`);
    }
  }
} finally {
  await server.close();
}
