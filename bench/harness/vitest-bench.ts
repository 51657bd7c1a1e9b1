/**
 * The scenarios measured with `vitest bench` (their `<nn>-<id>.bench.ts` files, run in Node and inside workerd
 * by the projects `bench-node` and `bench-workerd` of `vitest.config.ts`): starting that run from a scenario's
 * `run`, and reading back the medians its benchmarks leave in `bench/.cache/vitest/` (see `bench-files.ts`).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { IMPLEMENTATIONS } from "../implementations/registry.ts";
import type { Runtime, StreamsImplementation } from "../implementations/streams-implementation.ts";
import { slug, VITEST_RESULTS_DIR } from "./bench-files.ts";
import { describeMachine } from "./machine.ts";

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/** How drainpipe is loaded in the vitest benchmarks (see `tools/bundled-drainpipe.ts`). */
export const BUNDLE_NOTE =
  "drainpipe runs from an esbuild bundle of src/streams built when the benchmark starts, as wrangler bundles a " +
  "worker; loaded from src/ through vitest's module transform, every call between its modules becomes a " +
  "property load, which made it about 3.5× slower in earlier runs of this fixture.";

/** The runtimes the vitest benchmarks run in, in report order. */
export const RUNTIMES = ["node", "workerd"] as const satisfies readonly Runtime[];

/** A runtime the vitest benchmarks run in (vitest does not run on Bun or Deno). */
export type VitestRuntime = (typeof RUNTIMES)[number];

/** The vitest project that runs the benchmarks of `runtime`. */
export const PROJECTS: Record<VitestRuntime, string> = { node: "bench-node", workerd: "bench-workerd" };

/**
 * Runs one benchmark file (`file`, relative to the project root) with `vitest bench` in both bench projects,
 * after deleting what an earlier run of the same scenario (`scenario`: its results folder, the first argument of
 * `resultPath`) left. With `implementations`, runs it once per implementation instead, each in a vitest run (and
 * so a process) of its own with `benchImplementation` set to its name, in the projects of the runtimes it runs
 * in, for files that honour it. Returns whether every vitest run passed: their tests check every variant's output
 * before benching.
 *
 * @example
 * ```ts
 * const passed = runVitestBench("bench/scenarios/01-chunk-pipes.bench.ts", "chunk-pipes", true, IMPLEMENTATIONS);
 * ```
 */
export function runVitestBench(
  file: string,
  scenario: string,
  quick: boolean,
  implementations: readonly Pick<StreamsImplementation, "name" | "runtimes">[] | undefined = undefined,
): boolean {
  for (const runtime of RUNTIMES) {
    rmSync(resolve(PROJECT_ROOT, VITEST_RESULTS_DIR, PROJECTS[runtime], scenario), { recursive: true, force: true });
  }
  const vitest = resolve(PROJECT_ROOT, "node_modules/vitest/vitest.mjs");
  const runs = implementations?.map(({ name, runtimes }) => ({
    name,
    runtimes: RUNTIMES.filter((runtime) => runtimes.includes(runtime)),
  })) ?? [{ name: "", runtimes: RUNTIMES }];
  let passed = true;
  for (const { name, runtimes } of runs) {
    if (runtimes.length === 0) continue;
    const projects = runtimes.flatMap((runtime) => ["--project", `${PROJECTS[runtime]} (bench)`]);
    const result = spawnSync(process.execPath, [vitest, "bench", ...projects, file], {
      cwd: PROJECT_ROOT,
      stdio: "inherit",
      env: { ...process.env, BENCH_QUICK: quick ? "1" : "0", BENCH_IMPLEMENTATION: name },
    });
    passed &&= result.status === 0;
  }
  return passed;
}

/** The runtime column of the reports: the Node version, or workerd's and how it was run. */
export function runtimeLabel(runtime: VitestRuntime): string {
  const machine = describeMachine();
  return runtime === "node" ? `node ${machine.node}` : `workerd ${machine.workerd} (@cloudflare/vitest-plugin)`;
}

/** The median sample time in ms of one benchmark, or `undefined` when it did not run. */
export function medianMs(
  runtime: VitestRuntime,
  scenario: string,
  group: string,
  implementation: string,
): number | undefined {
  const path = resolve(
    PROJECT_ROOT,
    VITEST_RESULTS_DIR,
    PROJECTS[runtime],
    scenario,
    slug(group),
    `${slug(implementation)}.json`,
  );
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as { latency: { p50: number } };
    return data.latency.p50;
  } catch {
    return undefined;
  }
}

/** Every implementation benchmarked in `runtime` (whatever runtime this process is). */
export function implementationsIn(runtime: Runtime): StreamsImplementation[] {
  return IMPLEMENTATIONS.filter((implementation) => implementation.runtimes.includes(runtime));
}
