/**
 * The machine a benchmark run happened on, for the reports.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

/** What the reports say about the machine and the toolchain. */
export interface Machine {
  /** Processors available to the process (`nproc`). */
  nproc: number;
  /** The CPU model from `/proc/cpuinfo`. */
  cpu: string;
  /** Total memory in GiB. */
  memoryGiB: number;
  /** The Node version that ran the benchmarks. */
  node: string;
  /** The workerd version (from its npm package). */
  workerd: string;
  /** The wrangler version. */
  wrangler: string;
  /** The 1-minute load average when the run started (other processes compete for the cores). */
  loadAverage: number;
}

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(resolve(PROJECT_ROOT, "node_modules", name, "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return match?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Describes this machine.
 *
 * @example
 * ```ts
 * describeMachine(); // { nproc: 2, cpu: "Intel(R) Xeon(R) Processor", memoryGiB: 23.5, node: "24.21.0", … }
 * ```
 */
export function describeMachine(): Machine {
  return {
    nproc: availableParallelism(),
    cpu: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.versions.node,
    workerd: packageVersion("workerd"),
    wrangler: packageVersion("wrangler"),
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
  };
}
