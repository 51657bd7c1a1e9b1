/**
 * Memory of the workerd process that runs an embedded worker, read from `/proc` (Linux only): workerd is a
 * descendant of the Node process that started miniflare.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";

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
