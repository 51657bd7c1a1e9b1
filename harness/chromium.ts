/**
 * Headless Chromium for the page's tests (test/page) and, through `browsers.ts`, the browser tests and benchmarks:
 * Debian's `chromium` package (`apt-get install -y chromium`), driven by playwright-core, in a profile of its own.
 *
 * @module
 */
import { type BrowserContext, chromium } from "playwright-core";

/** What a machine without a browser is told, in one line. */
export const NO_CHROMIUM =
  "test/page: no Chromium found (set CHROMIUM_PATH, or install one with `apt-get install -y chromium`); " +
  "the browser page's tests are skipped";

/**
 * The flags the tests run Chromium with: headless, no sandbox (tests may run as root in a container), and none of
 * its own traffic (no QUIC, first-run pages, background fetches, component updates or sync): the page must work
 * with no network beside the worker's.
 */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/**
 * Starts `executablePath` headless with {@linkcode CHROMIUM_FLAGS} and a fresh profile in `userDataDir` (its
 * `--user-data-dir`): one browser whose pages share `localStorage`, as a person's tabs do.
 */
export function launchChromium(executablePath: string, userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 1100, height: 900 },
  });
}
