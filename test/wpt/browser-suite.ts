/**
 * Runs the WPT streams suite in a browser (Chromium or Firefox, `harness/browsers.ts`): each test file in a
 * page of its own, loaded from a local server that serves the WPT checkout, as WPT's own `.any.html` wrapper does
 * (testharness.js, the `META: script=` includes, the test file), all pages of one implementation in one browser
 * context of their own. For drainpipe, a classic script bundled from `src/streams/index.ts` (esbuild, with
 * `keepNames`) replaces the browser's stream classes on the global before the includes run.
 *
 * The pages are served with `Content-Security-Policy: script-src 'self' 'unsafe-eval'`: idlharness.js evaluates
 * the expressions naming the objects it checks. That drainpipe itself needs no `eval` is checked under
 * `script-src 'self'` by `test/browsers/safe.test.ts`.
 */
import path from "node:path";
import type { BrowserPage, RunningBrowser } from "../../harness/browsers.ts";
import { htmlPage, type PageServer, script, startServer } from "../../harness/page-server.ts";
import { bundleScript } from "../browsers/bundle.ts";
import type { PageResults } from "../browsers/pages/wpt-report.ts";
import type { Implementation } from "./implementation.ts";
import type { FileResult } from "./results.ts";
import { FILE_TIMEOUT_MS } from "./run-file.ts";
import type { SuiteResult } from "./run-suite.ts";
import { discoverTestFiles, type RunnableTestFile } from "./test-discovery.ts";
import { describeError } from "./worker-like-global.ts";

/** How long a page gets beyond the file's own timeout (testharness.js times its subtests out itself) to answer. */
const PAGE_GRACE_MS = 5_000;
const PAGES = path.resolve(import.meta.dirname, "../browsers/pages");

/** Options of {@linkcode runSuiteInBrowser}. */
export interface BrowserSuiteOptions {
  readonly wptDir: string;
  readonly browser: RunningBrowser;
  readonly implementation: Implementation;
  /** Only files whose WPT-relative path contains this string run; the empty string selects all. */
  readonly filter: string;
  /** How many pages run at once. */
  readonly jobs: number;
  readonly onFileDone?: (result: FileResult) => void;
}

/** The page of `file`: its scripts by their paths on the server, its title and timeout as `<meta>`/`<title>`. */
function pageOf(file: RunnableTestFile, wptDir: string, drainpipe: boolean): ReturnType<typeof htmlPage> {
  const served = (absolute: string): string => `/${path.relative(wptDir, absolute).split(path.sep).join("/")}`;
  const scripts = ["/resources/testharness.js", "/drainpipe/wpt-report.js"];
  if (drainpipe) scripts.push("/drainpipe/wpt-install.js");
  scripts.push(...file.scripts.map(served), served(file.absolutePath));
  const title = file.title === undefined ? "" : `<title>${file.title.replace(/</g, "&lt;")}</title>`;
  return htmlPage(scripts, `${title}${file.longTimeout ? '<meta name="timeout" content="long">' : ""}`);
}

async function runPage(
  browser: Awaited<ReturnType<RunningBrowser["newContext"]>>,
  server: PageServer,
  file: RunnableTestFile,
): Promise<FileResult> {
  const timeoutMs = (file.longTimeout ? FILE_TIMEOUT_MS.long : FILE_TIMEOUT_MS.normal) + PAGE_GRACE_MS;
  let page: BrowserPage | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    page = await browser.newPage();
    const opened = page;
    const url = `${server.origin}/${file.name.replace(/\.js$/, ".html")}`;
    const finished = (async () => {
      await opened.goto(url);
      return opened.evaluate(() => (globalThis as unknown as { wptResults: Promise<PageResults> }).wptResults, 0);
    })();
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no completion within ${timeoutMs} ms`)), timeoutMs);
    });
    const results = await Promise.race([finished, expired]);
    return {
      file: file.name,
      harnessStatus: results.status,
      harnessMessage: results.message,
      subtests: results.subtests,
      output: opened.errors.join("\n"),
    };
  } catch (error) {
    return { file: file.name, harnessStatus: "CRASH", harnessMessage: describeError(error), subtests: [], output: "" };
  } finally {
    clearTimeout(timer);
    await page?.close().catch(() => {});
  }
}

/**
 * Runs the selected files of the WPT checkout in `browser` against an implementation, `jobs` pages at a time, in
 * a browser context of its own, and resolves as `runSuite` does. A page that does not report completion in time
 * gets the harness status `CRASH`.
 *
 * @example
 * ```ts
 * const run = await runSuiteInBrowser({ wptDir, browser, implementation: "native", filter: "piping/", jobs: 2 });
 * ```
 */
export async function runSuiteInBrowser(options: BrowserSuiteOptions): Promise<SuiteResult> {
  const { wptDir } = options;
  const drainpipe = options.implementation === "drainpipe";
  const { runnable, skipped } = discoverTestFiles(wptDir, options.filter);
  const server = await startServer({
    csp: "script-src 'self' 'unsafe-eval'",
    directory: { prefix: "/", directory: wptDir },
  });
  server.files.set("/drainpipe/wpt-report.js", script(await bundleScript(path.join(PAGES, "wpt-report.ts"))));
  if (drainpipe) {
    const install = await bundleScript(path.join(PAGES, "wpt-install.ts"), "plain", true);
    server.files.set("/drainpipe/wpt-install.js", script(install));
  }
  for (const file of runnable)
    server.files.set(`/${file.name.replace(/\.js$/, ".html")}`, pageOf(file, wptDir, drainpipe));
  const context = await options.browser.newContext();
  try {
    const files: FileResult[] = [];
    const queue = [...runnable];
    const lane = async (): Promise<void> => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const result = await runPage(context, server, file);
        files.push(result);
        options.onFileDone?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, lane));
    files.sort((a, b) => a.file.localeCompare(b.file));
    return { implementation: options.implementation, files, skipped, missingExports: [] };
  } finally {
    await context.close();
    await server.close();
  }
}
