/**
 * Memory of the workerd process that runs an embedded worker, read from `/proc` (Linux only): workerd is a
 * descendant of the Node process that started miniflare.
 *
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

/** The pids of all descendants of `pid` named `name` (by `/proc/<pid>/comm`). */
export function descendantsNamed(pid: number, name: string): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      continue;
    }
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    queue.push(...(children.get(next) ?? []));
    try {
      if (readFileSync(`/proc/${next}/comm`, "utf8").trim() === name) found.push(next);
    } catch {
      continue;
    }
  }
  return found;
}

/**
 * The two workerd processes behind wrangler's `unstable_dev`: `worker` runs the project's worker (wrangler
 * starts it with an inspector, `--inspector-addr`), `proxy` is wrangler's ProxyWorker that forwards the HTTP
 * traffic to it. Throws when that layout is not found.
 */
export function embeddedWorkerdPids(): { worker: number; proxy: number } {
  const pids = descendantsNamed(process.pid, "workerd");
  const inspected = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr");
  const worker = pids.filter(inspected);
  const proxy = pids.filter((pid) => !inspected(pid));
  if (worker.length !== 1 || proxy.length !== 1) {
    throw new Error(`Cannot tell the workerd processes apart: found ${pids.length} (${pids.join(", ")})`);
  }
  return { worker: worker[0]!, proxy: proxy[0]! };
}

/** Resident set size now (`VmRSS`) and at its peak (`VmHWM`), in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+([0-9]+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/**
 * Resets the peak (`VmHWM`) of `pid` to its current RSS (Linux `clear_refs` mode 5; needs permission to
 * write `/proc/<pid>/clear_refs`, e.g. the same user or root).
 */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
