import { describe, expect, test } from "vitest";
import { compareWithExpectations, loadExpectations } from "./expectations.ts";
import { formatDeviation } from "./report.ts";
import { runSuite } from "./run-suite.ts";

const wptDir = process.env.WPT_DIR;
const EXPECTATIONS_FILE = new URL("./expectations.json", import.meta.url).pathname;
const SKIP_REASON = "WPT_DIR not set: skipping the web-platform-tests streams suite; see test/wpt/README.md";
const SUITE_TIMEOUT_MS = 180_000;

if (wptDir === undefined || wptDir === "") {
  console.log(SKIP_REASON);
}

describe("web-platform-tests streams suite against drainpipe", () => {
  test.skipIf(wptDir === undefined || wptDir === "")(
    "every subtest not listed in test/wpt/expectations.json passes (needs WPT_DIR; see test/wpt/README.md)",
    async () => {
      const run = await runSuite({ wptDir: wptDir ?? "", implementation: "drainpipe", filter: "", jobs: 2 });
      const { unexpectedFailures } = compareWithExpectations(run.files, loadExpectations(EXPECTATIONS_FILE));
      expect(run.files.length).toBeGreaterThan(0);
      expect(unexpectedFailures.map(formatDeviation)).toEqual([]);
    },
    SUITE_TIMEOUT_MS,
  );
});
