/**
 * What a process uses, read from `/proc` (Linux only): its memory now and at its peak, its CPU time, and its
 * descendants by name, to find the workerd process that runs a worker started from this Node process (workerd is a
 * descendant of the process that started miniflare).
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
    } catch {}
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    queue.push(...(children.get(next) ?? []));
    try {
      if (readFileSync(`/proc/${next}/comm`, "utf8").trim() === name) found.push(next);
    } catch {}
  }
  return found;
}

/** Resident set size now (`VmRSS`) and at its peak (`VmHWM`), in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+([0-9]+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/**
 * Resets the peak RSS (`VmHWM`) of process `pid` to its current RSS (Linux `clear_refs` value 5), so the next
 * reading shows the peak of what ran since. Returns whether the kernel accepted it.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, all threads) process `pid` has used so far, in milliseconds: `utime + stime` of
 * `/proc/<pid>/stat`, which counts in clock ticks, so in steps of 10 ms.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
