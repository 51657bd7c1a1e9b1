/**
 * The WPT streams suite in Chromium and Firefox (`test/wpt/browser-suite.ts`): the browser's own streams, then
 * drainpipe's in their place, in the same run. drainpipe must fail only what the expectations list
 * (`test/wpt/expectations.json`, plus `expectations.<browser>.json` beside it), and pass whatever the browser's own
 * streams pass unless an expectation says why not.
 *
 * Skipped, with one line, without `WPT_DIR` (see test/wpt/README.md) or without the browser.
 *
 * @module
 */
import { describe, expect, test } from "vitest";
import { BROWSERS, findBrowser, launchBrowser, missingBrowserLine } from "../../harness/browsers.ts";
import { compareWithExpectations, loadRuntimeExpectations, unexplainedDeviations } from "../wpt/expectations.ts";
import { formatDeviation, formatRuntimeTable, subtestsBehindNative, tally } from "../wpt/report.ts";

const wptDir = process.env.WPT_DIR ?? "";
const EXPECTATIONS_FILE = new URL("../wpt/expectations.json", import.meta.url).pathname;
const RUN_TIMEOUT_MS = 600_000;

if (wptDir === "") {
  console.log("WPT_DIR not set: skipping the web-platform-tests streams suite in browsers; see test/wpt/README.md");
}

describe("web-platform-tests streams suite in browsers, their own streams and drainpipe's", () => {
  for (const name of BROWSERS) {
    const binary = findBrowser(name);
    if (wptDir !== "" && !binary) console.warn(missingBrowserLine(name, "test/browsers/wpt.test.ts"));
    test.skipIf(wptDir === "" || !binary)(
      `${name}: drainpipe fails only what expectations list and passes whatever the browser's streams pass`,
      async () => {
        const { runSuiteInBrowser } = await import("../wpt/browser-suite.ts");
        const browser = await launchBrowser(name, binary!);
        try {
          const common = { wptDir, browser, filter: "", jobs: 2 } as const;
          const native = await runSuiteInBrowser({ ...common, implementation: "native" });
          const drainpipe = await runSuiteInBrowser({ ...common, implementation: "drainpipe" });
          console.log(
            formatRuntimeTable([
              { runtime: browser.version, native: tally(native.files), drainpipe: tally(drainpipe.files) },
            ]),
          );
          const expectations = loadRuntimeExpectations(EXPECTATIONS_FILE, name);
          const { unexpectedFailures } = compareWithExpectations(drainpipe.files, expectations);
          const behind = unexplainedDeviations(subtestsBehindNative(native.files, drainpipe.files), expectations);
          expect(drainpipe.files.length).toBeGreaterThan(0);
          expect(unexpectedFailures.map(formatDeviation)).toEqual([]);
          expect(behind.map(formatDeviation)).toEqual([]);
        } finally {
          await browser.close();
        }
      },
      RUN_TIMEOUT_MS,
    );
  }
});
