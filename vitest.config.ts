import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { bundledDrainpipe } from "./tools/bundled-drainpipe.ts";

/**
 * How long a test may run before it counts as hung. Tests assert no durations, but on a loaded two-core machine
 * a test of 32 concurrent uploads inside workerd takes 6 s where it takes 3 s alone: vitest's default of 5 s
 * failed good runs at random.
 */
const TEST_TIMEOUT_MS = 60_000;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          // The tests of src/ (test/) and of the benchmarks' own code (bench/test/). One rule decides where a test
          // runs: `*.workerd.test.ts` inside workerd, every other test in Node.
          include: ["test/**/*.test.ts", "bench/test/**/*.test.ts"],
          exclude: ["test/**/*.workerd.test.ts"],
          environment: "node",
          testTimeout: TEST_TIMEOUT_MS,
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./src/worker/index.ts",
            wrangler: { configPath: "./wrangler.toml" },
            // No read grace period in the tests' deployment: every read takes a lease, so a test can check at once
            // what a replace or a delete leaves in the bucket. Tests of the grace period set READ_GRACE_SECONDS in
            // the environment of their own requests (test/worker/read-cost.workerd.test.ts, platform-limits).
            miniflare: { bindings: { API_TOKEN: "test-token", READ_GRACE_SECONDS: "0" } },
          }),
        ],
        test: {
          name: "workerd",
          include: ["test/**/*.workerd.test.ts"],
          testTimeout: TEST_TIMEOUT_MS,
        },
      },
      // Benchmarks (`npm run bench` runs them with `vitest bench`): no regular tests, only `bench/**/*.bench.ts`,
      // once in Node and once inside workerd, on drainpipe's streams bundled as users run them (see
      // tools/bundled-drainpipe.ts).
      {
        plugins: [bundledDrainpipe()],
        test: {
          name: "bench-node",
          include: [],
          provide: {
            benchQuick: process.env.BENCH_QUICK === "1",
            benchImplementation: process.env.BENCH_IMPLEMENTATION ?? "",
          },
          benchmark: { include: ["bench/**/*.bench.ts"] },
          environment: "node",
        },
      },
      {
        plugins: [
          bundledDrainpipe(),
          cloudflareTest({ main: "./bench/workers/ingest-worker.ts", wrangler: { configPath: "./wrangler.toml" } }),
        ],
        test: {
          name: "bench-workerd",
          include: [],
          provide: {
            benchQuick: process.env.BENCH_QUICK === "1",
            benchImplementation: process.env.BENCH_IMPLEMENTATION ?? "",
          },
          benchmark: { include: ["bench/**/*.bench.ts"] },
        },
      },
    ],
  },
});
