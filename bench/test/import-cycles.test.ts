/**
 * No module of `bench/` or `harness/` imports itself back through others (as `matrix-shapes.ts` and
 * `matrix-host-crossings.ts` once did): a piece two modules share lives in a third that both import.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The relative modules `source` imports or re-exports, static or type-only, as paths from the project's root. */
function importsOf(file: string, source: string): string[] {
  const found = source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']+)["']/gm);
  return [...found].map((match) =>
    normalize(join(dirname(file), match[1]!))
      .split("\\")
      .join("/"),
  );
}

/** One cycle of `graph` (each module's imports) per strongly connected group of modules, each sorted. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const queue = [...(graph.get(from) ?? [])];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (next === to) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(graph.get(next) ?? []));
    }
    return false;
  };
  const placed = new Set<string>();
  for (const module of [...graph.keys()].sort()) {
    if (placed.has(module) || !reaches(module, module)) continue;
    const group = [...graph.keys()].filter(
      (other) => other === module || (reaches(module, other) && reaches(other, module)),
    );
    for (const member of group) placed.add(member);
    found.push(group.sort());
  }
  return found;
}

/** Every `.ts` file under `directory` (relative to the root), skipping dot folders and `bench/results`. */
function modules(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return entry.name.startsWith(".") || path === "bench/results" ? [] : modules(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

test("the check finds a cycle through three modules and passes a shared module both import", () => {
  const graph = new Map([
    ["a.ts", ["b.ts", "shared.ts"]],
    ["b.ts", ["c.ts", "shared.ts"]],
    ["c.ts", ["a.ts"]],
    ["shared.ts", []],
  ]);
  expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  expect(importsOf("bench/x/y.ts", 'import type { T } from "../z.ts";\nexport { u } from "./v.ts";')).toEqual([
    "bench/z.ts",
    "bench/x/v.ts",
  ]);
});

test("no import cycles in bench/ or harness/", () => {
  const files = [...modules("bench"), ...modules("harness")];
  expect(files.length).toBeGreaterThan(50);
  const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), "utf8"))]));
  expect(cycles(graph)).toEqual([]);
});
