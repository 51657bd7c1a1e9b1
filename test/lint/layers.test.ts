import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { expect, test } from "vitest";

/**
 * The layers of `src/`, lowest first: a module may import its own layer and those before it, never one after it.
 * `http-contract` (the HTTP API's bodies, codes, headers and reply parsers) sits between the files layer it builds
 * on and the worker and clients that share it; `cli` and `page` are both clients, and neither imports the other.
 */
const LAYERS = [
  ["streams"],
  ["numbers"],
  ["store"],
  ["split"],
  ["files"],
  ["http-contract"],
  ["coordinator"],
  ["worker"],
  ["cli", "page"],
] as const;

const SRC = resolve(import.meta.dirname, "../../src");
const IMPORT = /^(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms;

function rank(layer: string): number {
  const found = LAYERS.findIndex((group) => (group as readonly string[]).includes(layer));
  if (found < 0) throw new Error(`src/${layer} is in no layer: add it to LAYERS`);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

test("every module of src imports only its own layer and the layers below it", () => {
  const upward: string[] = [];
  for (const file of sources(SRC)) {
    const from = relative(SRC, file).split(sep)[0]!;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const to = relative(SRC, resolve(file, "..", specifier!)).split(sep)[0]!;
      if (to !== from && rank(to) >= rank(from)) upward.push(`${relative(SRC, file)} imports ${specifier}`);
    }
  }
  expect(upward).toEqual([]);
});
