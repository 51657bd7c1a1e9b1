/**
 * The import graph of `src/streams`, read from the sources, and the rule its folders follow (see
 * `src/streams/README.md`): each folder imports only itself and the folders below it.
 *
 * ```text
 * base/      promise helpers, completions, debug assertions  imports nothing (platform-types.ts counts here)
 * standard/  the standard's data structures and conversions  imports base/
 * engine/    the stream classes, fast paths, fused hops      imports base/, standard/
 * adapters/, iterable/, extensions/                          import base/, standard/, engine/
 * index.ts                                                   imports anything
 * ```
 *
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** One import (or re-export) statement with a relative specifier. */
export interface ImportEdge {
  /** The importing file, relative to the streams folder (`engine/readable-stream.ts`). */
  from: string;
  /** The imported file, relative to the streams folder; starts with `../` when it lies outside. */
  to: string;
  /** Whether the statement is `import type` / `export type` (erased at run time). */
  typeOnly: boolean;
}

/** What each folder of `src/streams` may import besides itself; `(root)` is `index.ts`. */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  base: [],
  standard: ["base"],
  engine: ["base", "standard"],
  adapters: ["base", "standard", "engine"],
  iterable: ["base", "standard", "engine"],
  extensions: ["base", "standard", "engine"],
  "(root)": ["base", "standard", "engine", "adapters", "iterable", "extensions"],
};

const STATEMENT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^;]*?\s+from\s+)?["'](\.\.?\/[^"']+)["']/g;

/** Every relative import of every `.ts` file under `streamsDir`. */
export function readImportGraph(streamsDir: string): ImportEdge[] {
  const root = resolve(streamsDir);
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  return files.flatMap((file) =>
    [...readFileSync(join(root, file), "utf8").matchAll(STATEMENT)].map((match) => ({
      from: file,
      to: relative(root, resolve(dirname(join(root, file)), match[2] as string)),
      typeOnly: match[1] !== undefined,
    })),
  );
}

/**
 * The top folder of a path relative to the streams folder: `engine` for `engine/fast-paths/dequeue.ts`.
 * `platform-types.ts` (forward declarations that import nothing, imported by every layer) counts as `base`.
 */
export function folderOf(path: string): string {
  if (path.startsWith("..")) return "(outside)";
  if (path === "platform-types.ts") return "base";
  return path.includes("/") ? (path.split("/")[0] as string) : "(root)";
}

/** The edges that break {@link ALLOWED_IMPORTS}, as `from -> to` lines; type-only imports count too. */
export function forbiddenImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const source = folderOf(from);
      const target = folderOf(to);
      if (source === target) return false;
      return !(ALLOWED_IMPORTS[source] ?? []).includes(target);
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

/**
 * The strongly connected components of more than one file (import circles), largest first, each sorted; with
 * `valueOnly`, type-only imports are left out (they are erased, so they make no circle at run time).
 */
export function importCircles(edges: readonly ImportEdge[], valueOnly: boolean): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to, typeOnly } of edges) {
    if (valueOnly && typeOnly) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => b.length - a.length);
}
