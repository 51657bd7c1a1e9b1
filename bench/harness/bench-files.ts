/**
 * Where the vitest benchmarks (`bench/scenarios/<nn>-<id>.bench.ts`) leave their results for their scenario
 * files to collect (through `vitest-bench.ts`): one JSON file per benchmark under
 * `bench/.cache/vitest/<project>/<scenario>/<group>/<implementation>.json`, written by vitest's `writeResult`
 * option.
 *
 * @module
 */

/** Time limit of one benchmark test (every implementation's samples of one case): 10 minutes. */
export const TEST_TIMEOUT_MS = 600_000;

/** The results directory, relative to the project root, as vitest's `writeResult` wants it. */
export const VITEST_RESULTS_DIR = "bench/.cache/vitest";

/**
 * A file-name-safe form of `name`.
 *
 * @example
 * ```ts
 * slug("pipeTo into a writev sink"); // "pipeto-into-a-writev-sink"
 * ```
 */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The `writeResult` path of one benchmark (`${projectName}` is filled in by vitest).
 *
 * @example
 * ```ts
 * resultPath("chunk-pipes", "pipeTo", "native"); // "bench/.cache/vitest/${projectName}/chunk-pipes/pipeto/native.json"
 * ```
 */
export function resultPath(scenario: string, group: string, implementation: string): string {
  return `${VITEST_RESULTS_DIR}/\${projectName}/${scenario}/${slug(group)}/${slug(implementation)}.json`;
}

declare module "vitest" {
  /** Values `vitest.config.ts` provides to the bench projects. */
  export interface ProvidedContext {
    /** Whether to run tiny sizes (`BENCH_QUICK=1`, set by `npm run bench:quick`). */
    benchQuick: boolean;
    /**
     * The one implementation a benchmark file that honours it runs (`BENCH_IMPLEMENTATION`, set by
     * `runVitestBench`), so that no call site is shared with another implementation; empty for all of them.
     */
    benchImplementation: string;
  }
}
