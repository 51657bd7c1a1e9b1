/**
 * PascalCase names in `src/streams` are reserved for what implements a named part of the WHATWG Streams standard:
 * every PascalCase function, and every PascalCase symbol (the keys of internal methods), must be one of the
 * standard's abstract operations or internal methods (`streams-abstract-operations.txt`, extracted from the
 * standard's source). drainpipe's own operations, fast paths and brand checks are camelCase, and only `standard/` and
 * `engine/` (outside `engine/fast-paths/` and `engine/fused/`) declare PascalCase names.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";

const root = join(import.meta.dirname, "../..");
const streamsDir = join(root, "src/streams");

const specNames = new Set(
  readFileSync(join(import.meta.dirname, "streams-abstract-operations.txt"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#")),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** PascalCase functions and symbols declared in `text`, with their line numbers. */
function pascalCaseDeclarations(text: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  text.split("\n").forEach((line, index) => {
    const declaration =
      /^\s*(?:export\s+)?(?:async\s+)?function\*?\s+([A-Z][A-Za-z0-9]*)/.exec(line) ??
      /^\s*(?:export\s+)?const\s+([A-Z][A-Za-z0-9]*)\s*(?::\s*unique\s+symbol\s*)?=\s*Symbol\(/.exec(line);
    if (declaration !== null) found.push({ name: declaration[1] as string, line: index + 1 });
  });
  return found;
}

const declarations = sourceFiles(streamsDir).flatMap((path) =>
  pascalCaseDeclarations(readFileSync(path, "utf8")).map((declaration) => ({
    ...declaration,
    file: relative(root, path),
  })),
);

describe("names in src/streams", () => {
  test("the scan finds the standard's operations (it reads the files it should)", () => {
    const names = new Set(declarations.map((declaration) => declaration.name));
    for (const name of ["ReadableStreamPipeTo", "WritableStreamAbort", "CancelSteps", "TransformStreamError"]) {
      expect(names).toContain(name);
    }
  });

  test("every PascalCase function or symbol implements a named abstract operation or internal method", () => {
    const outside = declarations
      .filter((declaration) => !specNames.has(declaration.name))
      .map(({ file, line, name }) => `${file}:${line} ${name}`);
    expect(outside).toEqual([]);
  });

  test("the fast paths, fused hops and additions (drainpipe's own) declare no PascalCase function or symbol", () => {
    const misplaced = declarations
      .filter(
        ({ file }) =>
          !/^src\/streams\/(standard|engine)\//.test(file) || /^src\/streams\/engine\/(fast-paths|fused)\//.test(file),
      )
      .map(({ file, line, name }) => `${file}:${line} ${name}`);
    expect(misplaced).toEqual([]);
  });

  test("standard/ and engine/ import nothing from extensions/", () => {
    const imports = [...sourceFiles(join(streamsDir, "standard")), ...sourceFiles(join(streamsDir, "engine"))].filter(
      (path) => /from "(\.\.\/)+extensions\//.test(readFileSync(path, "utf8")),
    );
    expect(imports.map((path) => relative(root, path))).toEqual([]);
  });
});
