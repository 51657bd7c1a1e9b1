/**
 * The two browsers drainpipe's streams are tested and measured in: Debian's `chromium`, driven by playwright-core,
 * and Debian's `firefox-esr`, driven by puppeteer-core over WebDriver BiDi. Both behind one small interface
 * ({@linkcode RunningBrowser}): a fresh browser context per use (its own cookies, storage and service workers),
 * pages opened in it, functions evaluated in them.
 *
 * @module
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium } from "playwright-core";
import puppeteer, { type BrowserContext as PuppeteerBrowserContext, type Page as PuppeteerPage } from "puppeteer-core";
import { CHROMIUM_FLAGS } from "./chromium.ts";

/** The browsers, in report order. */
export const BROWSERS = ["chromium", "firefox"] as const;

/** One of {@linkcode BROWSERS}. */
export type BrowserName = (typeof BROWSERS)[number];

/** Where each browser is looked for: an environment variable naming its binary, else these names on the `PATH`. */
const LOOKUP: Record<BrowserName, { variable: string; names: readonly string[]; apt: string }> = {
  chromium: { variable: "CHROMIUM_PATH", names: ["chromium", "chromium-browser"], apt: "chromium" },
  firefox: { variable: "FIREFOX_PATH", names: ["firefox-esr", "firefox"], apt: "firefox-esr" },
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The binary of `browser`: `CHROMIUM_PATH` / `FIREFOX_PATH` when set, else the first of its names on the `PATH`;
 * `undefined` when there is none.
 *
 * @example
 * ```ts
 * findBrowser("firefox"); // "/usr/bin/firefox-esr" on Debian with firefox-esr installed
 * ```
 */
export function findBrowser(browser: BrowserName): string | undefined {
  const { variable, names } = LOOKUP[browser];
  const given = process.env[variable];
  if (given) return executable(given) ? given : undefined;
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of names) {
      const path = join(directory, name);
      if (directory !== "" && executable(path)) return path;
    }
  }
  return undefined;
}

/**
 * The one line a machine without `browser` is told by `what` (a test file or a benchmark), saying how to install it.
 *
 * @example
 * ```ts
 * missingBrowserLine("firefox", "test/browsers/safety.test.ts");
 * ```
 */
export function missingBrowserLine(browser: BrowserName, what: string): string {
  const { variable, apt } = LOOKUP[browser];
  const install = `install it with \`apt-get install -y ${apt}\`, or set ${variable}`;
  return `${what}: no ${browser} found (${install}); skipped there`;
}

/** A page opened in a {@linkcode BrowserContextHandle}. */
export interface BrowserPage {
  /** Loads `url` and waits for its `load` event. */
  goto(url: string): Promise<void>;
  /** Calls `fn(arg)` in the page and resolves with its (awaited, serialisable) result. */
  evaluate<Arg, Result>(fn: (arg: Arg) => Result | Promise<Result>, arg: Arg): Promise<Result>;
  /** What the page threw and did not catch, in order. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** A browser context: a profile of its own, with its own cache, storage and service workers. */
export interface BrowserContextHandle {
  newPage(): Promise<BrowserPage>;
  close(): Promise<void>;
}

/** A started browser. */
export interface RunningBrowser {
  readonly name: BrowserName;
  /** Its product and version, e.g. `Chromium 156.0.8078.108` or `Firefox 153.8.0esr`. */
  readonly version: string;
  newContext(): Promise<BrowserContextHandle>;
  close(): Promise<void>;
}

/**
 * Starts `browser` (its binary at `executablePath`) headless.
 *
 * @example
 * ```ts
 * const browser = await launchBrowser("firefox", findBrowser("firefox")!);
 * const context = await browser.newContext();
 * const page = await context.newPage();
 * await page.goto("http://127.0.0.1:8080/");
 * await browser.close();
 * ```
 */
export async function launchBrowser(browser: BrowserName, executablePath: string): Promise<RunningBrowser> {
  return browser === "chromium" ? launchChromium(executablePath) : launchFirefox(executablePath);
}

async function launchChromium(executablePath: string): Promise<RunningBrowser> {
  const launched = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS] });
  return {
    name: "chromium",
    version: `Chromium ${launched.version()}`,
    async newContext() {
      const context = await launched.newContext();
      return {
        async newPage() {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error.message));
          return {
            errors,
            async goto(url) {
              await page.goto(url);
            },
            evaluate: <Arg, Result>(fn: (arg: Arg) => Result | Promise<Result>, arg: Arg) =>
              page.evaluate(fn as (arg: unknown) => Promise<Result>, arg as unknown),
            close: () => page.close(),
          };
        },
        close: () => context.close(),
      };
    },
    close: () => launched.close(),
  };
}

/**
 * A new page of `context`. Firefox 153 sometimes answers WebDriver BiDi's `browsingContext.create` with "no such
 * frame" (a `DiscardedBrowsingContextError`) while other pages of the context are being closed; a second try works.
 */
async function firefoxPage(context: PuppeteerBrowserContext): Promise<PuppeteerPage> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await context.newPage();
    } catch (error) {
      if (attempt === 3 || !String(error).includes("no such frame")) throw error;
    }
  }
}

async function launchFirefox(executablePath: string): Promise<RunningBrowser> {
  const launched = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath,
    headless: true,
    // Under WebDriver BiDi every page is a debuggee, and Firefox then records an async stack at each promise it
    // creates (`javascript.options.asyncstack`): 5 to 10 times the cost of `new Promise` and `then` of a browser
    // that no tool drives. Off, a page runs as its users' does.
    extraPrefsFirefox: { "javascript.options.asyncstack": false },
    // A benchmark's page runs for minutes in one call; puppeteer's default gives up on a call after 180 s.
    protocolTimeout: 0,
  });
  const version = (await launched.version()).replace(/^firefox\//i, "Firefox ");
  return {
    name: "firefox",
    version,
    async newContext() {
      const context = await launched.createBrowserContext();
      return {
        async newPage() {
          const page = await firefoxPage(context);
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)));
          return {
            errors,
            async goto(url) {
              await page.goto(url, { waitUntil: "load" });
            },
            evaluate: <Arg, Result>(fn: (arg: Arg) => Result | Promise<Result>, arg: Arg) =>
              page.evaluate(fn as (arg: unknown) => Promise<Result>, arg) as Promise<Result>,
            close: () => page.close(),
          };
        },
        close: () => context.close(),
      };
    },
    close: () => launched.close(),
  };
}
