/**
 * drainpipe's streams are safe in a page (issue 39), in headless Chromium and Firefox: bundled by esbuild plainly
 * and minified with its names mangled (`keepNames: false`), served under `Content-Security-Policy: script-src
 * 'self'` (no `eval`, no `new Function`), they work in a page, a dedicated worker and a service worker, and they
 * cross the browser's own APIs (`new Response(stream)`, a `fetch` body, `CompressionStream`,
 * `TextDecoderStream`) directly where the browser accepts them, and through the documented adapters
 * (`toNativeStream`, `fromNativeStream`, `collectBytes`) everywhere. Which crossings work directly is pinned per
 * browser in {@linkcode DIRECT}, so a change in either direction shows.
 *
 * A browser that is not installed is skipped with one line saying how to install it.
 *
 * @module
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BROWSERS,
  type BrowserName,
  findBrowser,
  launchBrowser,
  missingBrowserLine,
  type RunningBrowser,
} from "../../harness/browsers.ts";
import { htmlPage, type PageServer, script, startServer } from "../../harness/page-server.ts";
import { type BundleStyle, bundleScript } from "./bundle.ts";
import type { SafeReports } from "./pages/safe-page.ts";

const PAGES = resolve(import.meta.dirname, "pages");
const STYLES: readonly BundleStyle[] = ["plain", "minified"];

/** Code generation from strings in a bundle: `eval(`, `new Function`, `Function(`. */
const STRING_EVALUATION = /(?<![\w$.])eval\s*\(|\bnew\s+Function\b|(?<![\w$.])Function\s*\(/;

/** A host API that took a drainpipe stream for some other object and read it as a string. */
const STRINGIFIED = /^wrong output \(23 bytes: "\[object ReadableStream\]"\)$/;
/** A host's brand check refusing a drainpipe stream. */
const REFUSED = /^TypeError: /;

/**
 * What each crossing's direct way does in each browser, in every scope and bundle (the adapter's way must be `ok`
 * everywhere). A streaming upload fails in both browsers whatever the stream: Chromium sends one only over HTTP/2
 * (`ERR_ALPN_NEGOTIATION_FAILED` on this HTTP/1.1 server), Firefox 153 sends none and stringifies the body.
 */
const DIRECT: Record<BrowserName, Record<string, string | RegExp>> = {
  chromium: {
    "new Response(drainpipeReadable)": STRINGIFIED,
    "fetch POST body": STRINGIFIED,
    "fetch POST body, toNativeStream (a streaming upload)": "TypeError: Failed to fetch",
    'drainpipeReadable.pipeThrough(new CompressionStream("gzip"))': "ok",
    "drainpipeReadable.pipeThrough(new TextDecoderStream())": "ok",
    "response.body.pipeThrough(drainpipeTransform)": REFUSED,
  },
  firefox: {
    "new Response(drainpipeReadable)": STRINGIFIED,
    "fetch POST body": STRINGIFIED,
    "fetch POST body, toNativeStream (a streaming upload)": STRINGIFIED,
    'drainpipeReadable.pipeThrough(new CompressionStream("gzip"))': "ok",
    "drainpipeReadable.pipeThrough(new TextDecoderStream())": "ok",
    "response.body.pipeThrough(drainpipeTransform)": REFUSED,
  },
};

/** The policy violations each scope must report: its two probes' (`eval` and `new Function`), no more. */
const PROBE_VIOLATIONS = ["script-src blocked eval", "script-src blocked eval"];

for (const name of BROWSERS) {
  const binary = findBrowser(name);
  if (!binary) console.warn(missingBrowserLine(name, "test/browsers/safe.test.ts"));

  describe.skipIf(!binary)(`drainpipe's streams in a page of ${name}`, () => {
    let browser: RunningBrowser;
    let server: PageServer;
    /** drainpipe's streams alone, bundled in each style. */
    const libraries = new Map<BundleStyle, string>();

    beforeAll(async () => {
      server = await startServer();
      const streams = resolve(import.meta.dirname, "../../src/streams/index.ts");
      for (const style of STYLES) {
        libraries.set(style, await bundleScript(streams, style));
        const page = await bundleScript(resolve(PAGES, "safe-page.ts"), style);
        server.files.set(`/${style}/`, htmlPage([`/${style}/page.js`]));
        server.files.set(`/${style}/page.js`, script(page));
        server.files.set(`/${style}/worker.js`, script(await bundleScript(resolve(PAGES, "safe-worker.ts"), style)));
        server.files.set(
          `/${style}/sw.js`,
          script(await bundleScript(resolve(PAGES, "safe-service-worker.ts"), style)),
        );
      }
      browser = await launchBrowser(name, binary!);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    test("the bundles evaluate no strings as code", () => {
      for (const [style, text] of libraries) expect(STRING_EVALUATION.exec(text)?.[0], style).toBeUndefined();
    });

    for (const style of STYLES) {
      const where = "a page, a dedicated worker and a service worker";
      test(`${style} bundle: works in ${where}, under script-src 'self'`, async () => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${server.origin}/${style}/`);
          const reports: SafeReports = await page.evaluate(
            () => (globalThis as unknown as { safeReports: Promise<SafeReports> }).safeReports,
            undefined,
          );
          for (const report of [reports.page, reports.dedicatedWorker, reports.serviceWorker]) {
            for (const [check, outcome] of Object.entries(report.checks)) expect(outcome, check).toBe("ok");
            expect(
              report.probes.every((probe) => probe.startsWith("EvalError")),
              report.scope,
            ).toBe(true);
            expect(report.violations, report.scope).toEqual(PROBE_VIOLATIONS);
            expect(Object.keys(report.crossings)).toEqual(Object.keys(DIRECT[name]));
            for (const [crossing, { direct, adapter }] of Object.entries(report.crossings)) {
              expect(adapter, `${report.scope}: ${crossing}`).toBe("ok");
              expect(direct, `${report.scope}: ${crossing}`).toMatch(DIRECT[name][crossing]!);
            }
          }
          // Firefox reports each refused evaluation (the probes') as a page error too.
          expect(page.errors.filter((error) => !/^Content-Security-Policy: .* eval /.test(error))).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  });
}
