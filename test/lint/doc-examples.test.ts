import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { type DocExample, exampleModule, exportedNames, extractExamples, sourceFiles } from "./doc-examples.ts";

const ROOT = join(import.meta.dirname, "../..");
const OUT = ".cache/doc-examples";
const TSC = join(ROOT, "node_modules/.bin/tsc");

/** Writes one module per example, and a project for the CLI (Node types) and one for the rest (Workers types). */
function writeExamples(examples: readonly DocExample[]): Map<string, DocExample> {
  rmSync(join(ROOT, OUT), { recursive: true, force: true });
  const byModule = new Map<string, DocExample>();
  for (const example of examples) {
    const directory = `${OUT}/${example.file.replace(/\.ts$/, "")}`;
    const module = `${directory}/example-${example.line}.ts`;
    mkdirSync(join(ROOT, directory), { recursive: true });
    writeFileSync(join(ROOT, module), exampleModule(ROOT, example, directory));
    byModule.set(module, example);
  }
  const project = (base: string, include: string, exclude: string[]): string =>
    JSON.stringify({ extends: base, compilerOptions: { noEmit: true }, include: [include], exclude });
  writeFileSync(join(ROOT, OUT, "tsconfig.workers.json"), project("../../tsconfig.json", "src/**/*.ts", ["src/cli"]));
  writeFileSync(join(ROOT, OUT, "tsconfig.node.json"), project("../../tsconfig.node.json", "src/cli/**/*.ts", []));
  return byModule;
}

async function typeErrors(config: string): Promise<string[]> {
  try {
    await promisify(execFile)(TSC, ["-p", join(ROOT, OUT, config), "--pretty", "false"], { cwd: ROOT });
    return [];
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    return output.split("\n").filter((line) => line.includes("error TS"));
  }
}

describe("doc examples", () => {
  test("the extractor finds fenced and unfenced examples and the names a module exports", () => {
    const source = [
      "/**",
      " * Doubles.",
      " *",
      " * @example",
      " * ```ts",
      " * double(2); // 4",
      " * ```",
      " */",
      "export function double(x: number) { return 2 * x; }",
      "/**",
      " * @example",
      " * half(4);",
      " * @returns half",
      " */",
      "export const half = (x: number) => x / 2;",
      'export { type Shape, circle as round } from "./shapes.ts";',
      "export interface Box {}",
    ].join("\n");
    expect(extractExamples("src/x.ts", source)).toEqual([
      { file: "src/x.ts", line: 4, code: "double(2); // 4" },
      { file: "src/x.ts", line: 11, code: "half(4);" },
    ]);
    expect(exportedNames(source)).toEqual({ values: ["double", "half", "round"], types: ["Box", "Shape"] });
  });

  test("every @example under src/ type-checks against the code it documents", { timeout: 120_000 }, async () => {
    const examples = sourceFiles(ROOT, "src").flatMap((file) =>
      extractExamples(file, readFileSync(join(ROOT, file), "utf8")),
    );
    expect(examples.length).toBeGreaterThan(50);
    const byModule = writeExamples(examples);
    const errors = [...(await typeErrors("tsconfig.workers.json")), ...(await typeErrors("tsconfig.node.json"))];
    const located = errors.map((line) => {
      const module = line.slice(0, line.indexOf("("));
      const example = byModule.get(module);
      return example === undefined ? line : `${example.file}:${example.line} (@example): ${line.slice(module.length)}`;
    });
    expect(located).toEqual([]);
  });
});
