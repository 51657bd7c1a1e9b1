import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test, vi } from "vitest";
import {
  checkedCode,
  type DocExample,
  exampleModule,
  exportedNames,
  extractExamples,
  isRunnable,
  runnableModule,
  sourceFiles,
  unprefixedCommentLines,
} from "./doc-examples.ts";

const ROOT = join(import.meta.dirname, "../..");
const OUT = ".cache/doc-examples";
const TSC = join(ROOT, "node_modules/.bin/tsc");
/** Where the runnable examples are written (apart from {@link OUT}, which the type check empties). */
const RUN_OUT = ".cache/doc-examples-run";

const EXAMPLES = sourceFiles(ROOT, "src").flatMap((file) =>
  extractExamples(file, readFileSync(join(ROOT, file), "utf8")),
);

/**
 * Writes one module per example, and a project for the CLI (Node types), one for the browser page (the DOM) and one
 * for the rest (Workers types).
 */
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
  const workers = project("../../tsconfig.json", "src/**/*.ts", ["src/cli", "src/page"]);
  writeFileSync(join(ROOT, OUT, "tsconfig.workers.json"), workers);
  writeFileSync(join(ROOT, OUT, "tsconfig.node.json"), project("../../tsconfig.node.json", "src/cli/**/*.ts", []));
  writeFileSync(join(ROOT, OUT, "tsconfig.page.json"), project("../../tsconfig.page.json", "src/page/**/*.ts", []));
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

  test("every line inside a /** … */ comment starts with *", () => {
    const files = ["src", "test", "bench", "scripts"].flatMap((directory) => sourceFiles(ROOT, directory));
    const pasted = files.flatMap((file) =>
      unprefixedCommentLines(readFileSync(join(ROOT, file), "utf8")).map((line) => `${file}:${line}`),
    );
    expect(pasted).toEqual([]);
  });

  test("a line pasted into a doc comment without its * is found", () => {
    const source = ["/**", " * Shows.", " * @example", "import { x } from './x.ts';", " * x();", " */", "x();"];
    expect(unprefixedCommentLines(source.join("\n"))).toEqual([4]);
    expect(unprefixedCommentLines("/** One line. */\nconst x = 1;\n/*\nplain comment\n*/")).toEqual([]);
  });

  test("an example's value and throws comments become checks; other comments stay or fail", () => {
    const example = (code: string): DocExample => ({ file: "src/x.ts", line: 1, code });
    expect(checkedCode(example("double(2); // 4\nconst y = half(4); // 2, as text"))).toBe(
      "expect(double(2)).toEqual(4);\nconst y = half(4); // 2, as text",
    );
    const caught = 'const error = await (async () => parse("x"))().then(() => undefined, (thrown: unknown) => thrown);';
    expect(checkedCode(example('  parse("x"); // throws ParseError'))).toBe(
      `  { ${caught} expect(error).toBeInstanceOf(ParseError); }`,
    );
    expect(checkedCode(example('parse("x"); // throws ParseError "Cannot parse: x"'))).toBe(
      `{ ${caught} expect(error).toBeInstanceOf(ParseError); ` +
        'expect((error as Error).message).toBe("Cannot parse: x"); }',
    );
    expect(checkedCode(example('parse("x"); // throws ParseError "Cannot parse …"'))).toBe(
      `{ ${caught} expect(error).toBeInstanceOf(ParseError); ` +
        'expect((error as Error).message.slice(0, 12)).toBe("Cannot parse"); }',
    );
    expect(() => checkedCode(example("double(2); // four, in words"))).toThrow(/neither a value nor/);
    expect(isRunnable(example("double(2); // 4"))).toBe(true);
    expect(isRunnable(example("declare const n: number;\ndouble(n);"))).toBe(false);
    expect(isRunnable(example("export default { fetch: () => new Response() };"))).toBe(false);
  });

  test("every @example under src/ type-checks against the code it documents", { timeout: 120_000 }, async () => {
    const examples = EXAMPLES;
    expect(examples.length).toBeGreaterThan(50);
    const byModule = writeExamples(examples);
    const errors = [
      ...(await typeErrors("tsconfig.workers.json")),
      ...(await typeErrors("tsconfig.node.json")),
      ...(await typeErrors("tsconfig.page.json")),
    ];
    const located = errors.map((line) => {
      const module = line.slice(0, line.indexOf("("));
      const example = byModule.get(module);
      return example === undefined ? line : `${example.file}:${example.line} (@example): ${line.slice(module.length)}`;
    });
    expect(located).toEqual([]);
  });
});

describe("runnable doc examples (those that declare nothing): each runs, and its value comments hold", () => {
  const runnable = EXAMPLES.filter(isRunnable);
  rmSync(join(ROOT, RUN_OUT), { recursive: true, force: true });

  test("most examples run", () => {
    expect(runnable.length).toBeGreaterThan(40);
  });

  for (const example of runnable) {
    test(`${example.file}:${example.line}`, async () => {
      const directory = `${RUN_OUT}/${example.file.replace(/\.ts$/, "")}`;
      const module = join(ROOT, directory, `example-${example.line}.ts`);
      mkdirSync(join(ROOT, directory), { recursive: true });
      writeFileSync(module, runnableModule(ROOT, example, directory));
      // Examples print what they show; keep the test output clean.
      const quiet = [
        vi.spyOn(console, "log").mockImplementation(() => {}),
        vi.spyOn(process.stdout, "write").mockImplementation(() => true),
        vi.spyOn(process.stderr, "write").mockImplementation(() => true),
      ];
      try {
        await import(pathToFileURL(module).href);
      } finally {
        for (const spy of quiet) spy.mockRestore();
      }
    });
  }
});
