import { describe, expect, test } from "vitest";
import { compareWithExpectations, loadRuntimeExpectations, unexplainedDeviations } from "./expectations.ts";
import { formatDeviation, subtestsBehindNative } from "./report.ts";
import { RUNTIMES, runSuiteOnRuntime } from "./runtimes.ts";

const wptDir = process.env.WPT_DIR ?? "";
const enabled = wptDir !== "" && process.env.WPT_RUNTIMES === "1";
const EXPECTATIONS_FILE = new URL("./expectations.json", import.meta.url).pathname;
const RUN_TIMEOUT_MS = 300_000;

if (!enabled) {
  console.log(
    "WPT_DIR and WPT_RUNTIMES=1 not both set: skipping the web-platform-tests streams suite on " +
      `${RUNTIMES.join(", ")}; see test/wpt/README.md`,
  );
}

describe("web-platform-tests streams suite on every runtime, native streams and drainpipe", () => {
  for (const runtime of RUNTIMES) {
    test.skipIf(!enabled)(
      `${runtime}: drainpipe fails only what expectations list and passes whatever native streams pass` +
        " (needs WPT_DIR and WPT_RUNTIMES=1; see test/wpt/README.md)",
      async () => {
        const common = { wptDir, runtime, filter: "", jobs: 2 } as const;
        const native = await runSuiteOnRuntime({ ...common, implementation: "native" });
        const drainpipe = await runSuiteOnRuntime({ ...common, implementation: "drainpipe" });
        const expectations = loadRuntimeExpectations(EXPECTATIONS_FILE, runtime);
        const { unexpectedFailures } = compareWithExpectations(drainpipe.files, expectations);
        const behind = unexplainedDeviations(subtestsBehindNative(native.files, drainpipe.files), expectations);
        expect(drainpipe.files.length).toBeGreaterThan(0);
        expect(unexpectedFailures.map(formatDeviation)).toEqual([]);
        expect(behind.map(formatDeviation)).toEqual([]);
      },
      RUN_TIMEOUT_MS,
    );
  }
});
