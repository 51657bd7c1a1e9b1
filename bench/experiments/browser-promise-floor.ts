/**
 * `promise-floor.ts` in the browsers: its four loops (an awaited resolved promise per item; plus a reaction; a pending
 * promise settled from a reaction and awaited, the floor of a reader loop and of a writer loop that awaits every
 * write; a chain of reactions, the floor of a pipe) run in a page of headless Chromium and Firefox ESR, bundled by
 * esbuild as they are, served by the local page server. Set beside scenario 12's rows, they say how much of a row
 * is the browser's promise machinery: in Firefox 153 each of these loops costs several times what it costs in
 * Chromium 156, and drainpipe's rates there follow (`bench/performance.md`, "The browsers").
 *
 * Run: `npm run bench:browser-floors`. Prints each loop's line (items/s, median and best of 7 runs of 1,000,000
 * items) per browser; a browser that is not installed is skipped with one line saying how to install it.
 *
 * @module
 */
import { resolve } from "node:path";
import { build } from "esbuild";
import { BROWSERS, findBrowser, launchBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { htmlPage, script, startServer } from "../../harness/page-server.ts";

/** How many lines `promise-floor.ts` prints: one per loop. */
const LOOPS = 4;

/** `promise-floor.ts` as a module script whose `console.log` lines collect in `globalThis.floorLines`. */
async function floorScript(): Promise<string> {
  const result = await build({
    entryPoints: [resolve(import.meta.dirname, "promise-floor.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    banner: { js: "globalThis.floorLines = []; console.log = (line) => globalThis.floorLines.push(line);" },
    plugins: [
      {
        name: "browser-performance",
        setup(plugin) {
          plugin.onResolve({ filter: /^node:perf_hooks$/ }, () => ({ path: "perf_hooks", namespace: "browser" }));
          plugin.onLoad({ filter: /.*/, namespace: "browser" }, () => ({
            contents: "export const performance = globalThis.performance;",
          }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

const server = await startServer();
try {
  server.files.set("/", htmlPage(["/floor.mjs"]));
  server.files.set("/floor.mjs", script(await floorScript()));
  for (const name of BROWSERS) {
    const binary = findBrowser(name);
    if (binary === undefined) {
      console.log(missingBrowserLine(name, "bench/experiments/browser-promise-floor.ts"));
      continue;
    }
    const browser = await launchBrowser(name, binary);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.origin}/`);
      const lines = await page.evaluate(
        (count) =>
          new Promise<string[]>((done) => {
            const poll = () => {
              const collected = (globalThis as unknown as { floorLines: string[] }).floorLines;
              if (collected.length >= count) done(collected);
              else setTimeout(poll, 200);
            };
            poll();
          }),
        LOOPS,
      );
      console.log(`${browser.version}:`);
      for (const line of lines) console.log(`  ${line}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
