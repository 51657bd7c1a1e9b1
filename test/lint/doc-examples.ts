/**
 * Extracts the `@example` blocks of the TSDoc comments under `src/` into standalone modules, so that the
 * type checker can hold every example to the code it documents, and turns the examples that can run into checks
 * of the values their comments promise.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { transformSync } from "esbuild";

/** One `@example` block, with where it came from. */
export interface DocExample {
  /** The documented file, relative to the project root with forward slashes (`src/split/part-size.ts`). */
  file: string;
  /** 1-based line of the `@example` tag. */
  line: number;
  /** The example's code, without the comment's leading `*` and without the code fence. */
  code: string;
}

/** The names a module exports, split into values and types (types need `import type`). */
export interface ModuleExports {
  values: string[];
  types: string[];
}

/** The layers whose `index.ts` is a public entry point, lowest first. */
const LIBRARY_LAYERS = ["streams", "numbers", "store", "split", "files"] as const;

const EXAMPLE_TAG = /^\s*\*\s?@example\b/;
const COMMENT_LINE = /^\s*\*\s?/;
const DECLARATION = new RegExp(
  String.raw`^export\s+(?:declare\s+)?(?:async\s+)?(function\*?|const|let|class|abstract\s+class|interface|type|enum)` +
    String.raw`\s+([A-Za-z_$][\w$]*)`,
  "gm",
);
const EXPORT_LIST = /^export\s+(type\s+)?\{([^}]*)\}\s+from\s+"[^"]+";/gm;

/**
 * The 1-based lines inside a multi-line `/** … *\/` comment that do not start with `*` (say, a line of code pasted
 * into the comment). A comment opens on a line that starts with `/**` and closes at the first `*\/`.
 *
 * @example
 * ```ts
 * unprefixedCommentLines("/**\n * Docs.\nconst x = 1;\n *\/"); // [3]
 * ```
 */
export function unprefixedCommentLines(source: string): number[] {
  const found: number[] = [];
  let inside = false;
  source.split("\n").forEach((line, index) => {
    if (inside) {
      if (!/^\s*\*/.test(line)) found.push(index + 1);
      if (line.includes("*/")) inside = false;
    } else if (/^\s*\/\*\*/.test(line) && !line.includes("*/")) {
      inside = true;
    }
  });
  return found;
}

/**
 * Whether an example runs as a test: it does unless it declares what it needs from outside (`declare const
 * client: WorkerClient;`, a file, a worker, a network) or is a module of its own (`export default`, a Worker's
 * entry point, which only its runtime runs).
 */
export function isRunnable(example: DocExample): boolean {
  return !/^\s*declare\s/m.test(example.code) && !/^\s*export\s+default\b/m.test(example.code);
}

/** Whether `code` parses as one JavaScript or TypeScript expression. */
function isExpression(code: string): boolean {
  try {
    transformSync(`(${code}\n);`, { loader: "ts", format: "esm" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The example's code with every `expression; // value` line turned into a check that the expression equals the
 * value (`expect(expression).toEqual(value)`), and every `expression; // throws ErrorClass` line into a check that
 * it throws (or rejects with) that class; `throws ErrorClass "message"` checks the message too, its start when it
 * ends with ` …`. Other lines, and comments after statements that are not expressions, stay as they are.
 *
 * @throws {Error} when the comment after an expression is neither a value nor `throws ErrorClass`: an example's
 * claim the test cannot check.
 *
 * @example
 * ```ts
 * checkedCode({ file: "src/x.ts", line: 3, code: "double(2); // 4" }); // "expect(double(2)).toEqual(4);"
 * ```
 */
export function checkedCode(example: DocExample): string {
  return example.code
    .split("\n")
    .map((line) => {
      const match = /^(\s*)(.*);\s*\/\/ (.*)$/.exec(line);
      if (!match) return line;
      const [, indent, expression, comment] = match as unknown as [string, string, string, string];
      if (!isExpression(expression)) return line;
      const thrown = /^throws (\w+)(?: ("(?:[^"\\]|\\.)*"))?$/.exec(comment.trim());
      if (thrown) return indent + thrownCheck(expression, thrown[1] as string, thrown[2]);
      if (isExpression(comment)) return `${indent}expect(${expression}).toEqual(${comment});`;
      throw new Error(
        `Cannot check ${example.file}:${example.line} (@example): in "${line.trim()}", the comment after the ` +
          "expression is neither a value nor `throws ErrorClass`",
      );
    })
    .join("\n");
}

/**
 * The check of a `// throws ErrorClass ["message"]` comment, on one line: `expression` throws or rejects with an
 * instance of `errorClass` whose message is `message` (a string literal), or starts with it when it ends with ` …`.
 */
function thrownCheck(expression: string, errorClass: string, message: string | undefined): string {
  const run = `(async () => ${expression})()`;
  const caught = `const error = await ${run}.then(() => undefined, (thrown: unknown) => thrown);`;
  const isInstance = `expect(error).toBeInstanceOf(${errorClass});`;
  if (message === undefined) return `{ ${caught} ${isInstance} }`;
  const text = JSON.parse(message) as string;
  const prefix = text.endsWith(" …") ? text.slice(0, -2) : undefined;
  const isMessage =
    prefix === undefined
      ? `expect((error as Error).message).toBe(${message});`
      : `expect((error as Error).message.slice(0, ${prefix.length})).toBe(${JSON.stringify(prefix)});`;
  return `{ ${caught} ${isInstance} ${isMessage} }`;
}

/**
 * Every `@example` block of one source text. A block runs from the line after `@example` to the next tag or the
 * end of the comment; a fenced block (```ts … ```) contributes the lines inside the fence.
 */
export function extractExamples(file: string, source: string): DocExample[] {
  const lines = source.split("\n");
  const examples: DocExample[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!EXAMPLE_TAG.test(lines[index] ?? "")) continue;
    const body: string[] = [];
    let cursor = index + 1;
    for (; cursor < lines.length; cursor++) {
      const line = lines[cursor] ?? "";
      if (line.includes("*/") || /^\s*\*\s?@\w+/.test(line)) break;
      body.push(line.replace(COMMENT_LINE, ""));
    }
    const fenceStart = body.findIndex((line) => line.trimStart().startsWith("```"));
    const fenceEnd = fenceStart < 0 ? -1 : body.findIndex((line, at) => at > fenceStart && line.trim() === "```");
    const code = fenceStart < 0 ? body : body.slice(fenceStart + 1, fenceEnd < 0 ? undefined : fenceEnd);
    examples.push({ file, line: index + 1, code: code.join("\n").trim() });
    index = cursor - 1;
  }
  return examples;
}

/**
 * The names a TypeScript module exports through `export <declaration>` and `export { … } from` lists.
 *
 * @example
 * ```ts
 * exportedNames("export interface A {}\nexport const b = 1;\nexport { type C, d } from \"./x.ts\";");
 * // { values: ["b", "d"], types: ["A", "C"] }
 * ```
 */
export function exportedNames(source: string): ModuleExports {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const [, kind, name] of source.matchAll(DECLARATION)) {
    (kind === "interface" || kind === "type" ? types : values).add(name as string);
  }
  for (const [, typeOnly, list] of source.matchAll(EXPORT_LIST)) {
    for (const entry of (list as string).split(",")) {
      const trimmed = entry.trim();
      if (trimmed === "") continue;
      const isType = typeOnly !== undefined || trimmed.startsWith("type ");
      const name = trimmed
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1) as string;
      (isType ? types : values).add(name);
    }
  }
  return { values: [...values].sort(), types: [...types].filter((name) => !values.has(name)).sort() };
}

/** Every `.ts` file below `directory`, relative to `root`, with forward slashes, sorted. */
export function sourceFiles(root: string, directory: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push(relative(root, path));
    }
  };
  walk(join(root, directory));
  return found.map((path) => path.split(sep).join("/")).sort();
}

/**
 * The module that type-checks one example: imports of everything the documented file exports and, for a file of
 * a library layer, everything the library layers export (what a user of the package can import), then the
 * example's own code. Anything else an example uses, it imports or declares (`declare const response: Response;`).
 * `moduleDirectory` is where the module will be written, relative to `root`.
 */
export function exampleModule(root: string, example: DocExample, moduleDirectory: string): string {
  const own = ownImports(root, example, moduleDirectory);
  const imports: string[] = [];
  const seen = new Set<string>(own.names);
  const importFrom = (file: string): void => {
    const { values, types } = exportedNames(readFileSync(join(root, file), "utf8"));
    const fresh = [...values.filter((name) => !seen.has(name)), ...types.filter((name) => !seen.has(name))];
    if (fresh.length === 0) return;
    for (const name of fresh) seen.add(name);
    const names = fresh.map((name) => (types.includes(name) ? `type ${name}` : name));
    imports.push(`import { ${names.join(", ")} } from "${specifierFrom(root, moduleDirectory, file)}";`);
  };
  importFrom(example.file);
  const layer = example.file.split("/")[1];
  if (LIBRARY_LAYERS.some((library) => library === layer)) {
    for (const library of LIBRARY_LAYERS) importFrom(`src/${library}/index.ts`);
  }
  return [`// ${example.file}:${example.line}`, ...imports, "", own.code, "", "export {};", ""].join("\n");
}

/**
 * The module that runs one example as a test: {@linkcode exampleModule} of its {@linkcode checkedCode}, with
 * vitest's `expect` imported for the checks.
 */
export function runnableModule(root: string, example: DocExample, moduleDirectory: string): string {
  const [location, ...rest] = exampleModule(root, { ...example, code: checkedCode(example) }, moduleDirectory).split(
    "\n",
  );
  return [location, 'import { expect } from "vitest";', ...rest].join("\n");
}

/** A relative import specifier from `moduleDirectory` to `file` (both relative to `root`). */
function specifierFrom(root: string, moduleDirectory: string, file: string): string {
  const specifier = relative(join(root, moduleDirectory), join(root, file)).split(sep).join("/");
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

/**
 * The example's code with its relative imports (written from the documented file's folder) pointed at the same
 * modules from `moduleDirectory`, and the names those imports bind.
 */
function ownImports(root: string, example: DocExample, moduleDirectory: string): { code: string; names: string[] } {
  const names: string[] = [];
  const documentedDirectory = example.file.split("/").slice(0, -1).join("/");
  const code = example.code.replace(
    /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"(\.{1,2}\/[^"]+)";/gm,
    (line, list: string, specifier: string) => {
      for (const entry of list.split(",")) {
        const name = entry
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)
          .at(-1);
        if (name) names.push(name);
      }
      const target = join(documentedDirectory, specifier);
      return line.replace(specifier, specifierFrom(root, moduleDirectory, target));
    },
  );
  return { code, names };
}
