/**
 * The published package as a user gets it: `npm pack`, installed from the tarball into an empty project, then
 * every subpath imported and the library's examples (the README's and `docs/library.md`'s) run on Node 20, Node 24,
 * Node 26, Deno and Bun, type-checked under strict settings with both `nodenext` and `bundler` resolution, the library
 * docs' worker bundled by `wrangler deploy --dry-run` and run in local workerd, and the bin run on Node 20.
 *
 * @module
 */

import { execFile } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build, transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { findNode20 } from "../../scripts/node20.ts";
import { ensureNode26 } from "../../scripts/node26.ts";
import { expectedOutput, type LibraryExample, libraryExamples } from "./doc-blocks.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const run = promisify(execFile);
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
// Every step starts a runtime, a type checker or a bundler: generous, for a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const SUBPATHS = [".", "./streams", "./iterable", "./numbers", "./store", "./split", "./files", "./worker"] as const;

let project: string;
let tarball: { filename: string; size: number; files: string[] };
let examples: LibraryExample[];
let node20: string;

beforeAll(async () => {
  const found = findNode20();
  if (found === undefined) throw new Error("Cannot test the package on Node 20: no Node 20 on the PATH");
  node20 = found;
  project = mkdtempSync(join(tmpdir(), "drainpipe-consumer-"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", project], {
    cwd: ROOT,
    maxBuffer: 64 << 20,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  tarball = { filename: packed!.filename, size: packed!.size, files: packed!.files.map((file) => file.path) };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", `./${tarball.filename}`, "--offline", "--no-audit", "--no-fund"], { cwd: project });
  // The type checker needs the platform's types, which a user installs beside the package.
  for (const types of ["@types/node", "undici-types", "@cloudflare/workers-types"]) {
    mkdirSync(join(project, "node_modules", types, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", types), join(project, "node_modules", types));
  }
  examples = libraryExamples(ROOT);
  for (const example of examples) {
    writeFileSync(join(project, `${example.id}.${example.lang}`), example.code);
    if (example.lang === "ts") {
      const { code } = await transform(example.code, { loader: "ts", format: "esm", target: "es2022" });
      writeFileSync(join(project, `${example.id}.mjs`), code);
    }
  }
}, 300_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test("the tarball ships dist/, the bin, the README and package.json only; no runtime dependencies", () => {
  expect(tarball.files.filter((file) => !file.startsWith("dist/"))).toEqual([
    "README.md",
    "bin/drainpipe.js",
    "package.json",
  ]);
  expect(tarball.files).toContain("dist/cli/main.js");
  expect(
    tarball.files.filter((file) => file.startsWith("dist/") && file.endsWith(".ts") && !file.endsWith(".d.ts")),
  ).toEqual([]);
  const installed = JSON.parse(readFileSync(join(project, "node_modules", PACKAGE.name, "package.json"), "utf8"));
  expect(installed.dependencies).toBeUndefined();
  expect(installed.private).toBeUndefined();
  // Only the empty module of platform type declarations counts as having effects: its bare imports are kept, so
  // bundlers neither drop nor warn about them, and everything else can be shaken.
  expect(installed.sideEffects).toEqual(["**/platform-types.*"]);
  expect(Object.keys(installed.exports)).toEqual([...SUBPATHS, "./package.json"]);
  expect(readdirSync(join(project, "node_modules"))).not.toContain("wrangler");
  console.info(`tarball ${tarball.filename}: ${tarball.size} bytes, ${tarball.files.length} files`);
});

test("the declarations show no internal slot", () => {
  const dir = join(project, "node_modules", PACKAGE.name, "dist");
  const leaks = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".d.ts"))
    .flatMap((file) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter((line) => /^\s+(?:readonly\s+)?_\w+\??[:(]/.test(line) || /\["_\w+"\]/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
  expect(leaks).toEqual([]);
});

test("the package's code has none of the streams' debug assertions", () => {
  // An assertion is a statement labelled DEBUG: calling debugAssert (src/streams/base/assert.ts); the build drops them.
  const assertion = /\bDEBUG:|\bdebugAssert\b|\bDebugAssertionError\b/;
  const source = readFileSync(join(ROOT, "src/streams/engine/readable-stream-default-controller.ts"), "utf8");
  expect(source).toMatch(assertion);
  const dir = join(project, "node_modules", PACKAGE.name, "dist");
  const withAssertions = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".js") && assertion.test(readFileSync(join(dir, file), "utf8")),
  );
  expect(withAssertions).toEqual([]);
});

/** A class each layer defines, to tell from a bundle which layers it holds (class names survive bundling). */
const MARKERS = {
  streams: "ReadableByteStreamController",
  numbers: "NumberParser",
  store: "MemoryStore",
  split: "PartSplitter",
  files: "FileCatalog",
  worker: "FileCoordinator",
} as const;
type Layer = keyof typeof MARKERS;

/** The layers each subpath may load: its own and those below it (the layers above must stay out). */
const LOADS: Record<(typeof SUBPATHS)[number], Layer[]> = {
  ".": ["streams"],
  "./streams": ["streams"],
  "./iterable": ["streams"],
  "./numbers": ["streams", "numbers"],
  "./store": ["store"],
  "./split": ["streams", "numbers", "store", "split"],
  "./files": ["streams", "numbers", "store", "split", "files"],
  "./worker": ["streams", "numbers", "store", "split", "files", "worker"],
};

test("each subpath bundles alone, with only the layers it builds on", async () => {
  const sizes: string[] = [];
  for (const subpath of SUBPATHS) {
    const specifier = subpath === "." ? PACKAGE.name : `${PACKAGE.name}/${subpath.slice(2)}`;
    const result = await build({
      stdin: { contents: `export * from "${specifier}";`, resolveDir: project, loader: "js" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      minify: true,
      keepNames: true,
      external: ["cloudflare:workers"],
      logLevel: "silent",
    });
    const code = result.outputFiles[0]!.text;
    const present = (Object.keys(MARKERS) as Layer[]).filter((layer) => code.includes(`"${MARKERS[layer]}"`));
    const own: Layer = subpath === "." || subpath === "./iterable" ? "streams" : (subpath.slice(2) as Layer);
    expect(present, subpath).toContain(own);
    expect(
      present.filter((layer) => !LOADS[subpath].includes(layer)),
      subpath,
    ).toEqual([]);
    sizes.push(`${subpath} ${code.length} B`);
  }
  console.info(`minified bundles: ${sizes.join(", ")}`);
});

/** Imports every subpath but `./worker` (which needs workerd's `cloudflare:workers`) and resolves that one. */
const IMPORT_ALL = `
import * as root from "${PACKAGE.name}";
${SUBPATHS.slice(1, -1)
  .map((subpath, index) => `import * as m${index} from "${PACKAGE.name}/${subpath.slice(2)}";`)
  .join("\n")}
const modules = [root, ${SUBPATHS.slice(1, -1)
  .map((_, index) => `m${index}`)
  .join(", ")}];
const worker = import.meta.resolve("${PACKAGE.name}/worker");
console.log(JSON.stringify({
  exports: modules.map((module) => Object.keys(module).length),
  names: [root.ReadableStream.name, root.WritableStream.name, root.TransformStream.name],
  same: root.ReadableStream === m0.ReadableStream,
  worker: worker.endsWith("/dist/worker/index.js"),
}));
`;

describe.each([
  ["Node 20", () => [node20]],
  ["Node 24", () => [join(BIN, "node")]],
  ["Node 26", () => [ensureNode26()]],
  ["Deno", () => [join(BIN, "deno"), "run", "--allow-read", "--allow-env"]],
  ["Bun", () => [join(BIN, "bun")]],
])("on %s", (_runtime, command) => {
  test("every subpath imports (./worker resolves)", async () => {
    writeFileSync(join(project, "import-all.mjs"), IMPORT_ALL);
    const [program, ...args] = command();
    const { stdout } = await run(program!, [...args, "import-all.mjs"], { cwd: project });
    const result = JSON.parse(stdout) as { exports: number[]; names: string[]; same: boolean; worker: boolean };
    expect(result.names).toEqual(["ReadableStream", "WritableStream", "TransformStream"]);
    expect(result.exports.every((count) => count > 0)).toBe(true);
    expect(result.same).toBe(true);
    expect(result.worker).toBe(true);
  });

  test("the library's examples print what they say", async () => {
    const [program, ...args] = command();
    const runnable = examples.filter((example) => example.lang === "ts" && !example.worker);
    expect(runnable.length).toBeGreaterThanOrEqual(6);
    for (const example of runnable) {
      const { stdout } = await run(program!, [...args, `${example.id}.mjs`], { cwd: project });
      expect(stdout.trim(), `${example.file}:${example.line}`).toBe(expectedOutput(example.code));
    }
  });
});

/** Each drainpipe class given where the global (standard) type of the same name is expected. */
const STANDARD_TYPES = `
import { ReadableStream, TransformStream, WritableStream } from "${PACKAGE.name}";
export const sink: globalThis.WritableStream<number> = new WritableStream<number>();
export const numbers: globalThis.ReadableStream<number> = ReadableStream.from([1, 2, 3]);
export const bytes: globalThis.ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>({ type: "bytes" });
export const pair: globalThis.TransformStream<number, string> = new TransformStream<number, string>();
const strings = ReadableStream.from([1]).pipeThrough(new TransformStream<number, string>());
export const piped: globalThis.ReadableStream<string> = strings;
export const chunks: AsyncIterable<string> = strings;
`;

describe.each(["nodenext", "bundler"])("type-checked with moduleResolution %s", (resolution) => {
  const compilerOptions = {
    target: "ES2022",
    module: resolution === "nodenext" ? "NodeNext" : "ESNext",
    moduleResolution: resolution === "nodenext" ? "NodeNext" : "Bundler",
    lib: ["ES2023"],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noEmit: true,
    skipLibCheck: false,
  };

  test("the library's examples, and drainpipe streams where Node's standard ones are expected", async () => {
    writeFileSync(join(project, "standard-types.ts"), STANDARD_TYPES);
    const files = [
      ...examples.filter((e) => e.lang === "ts" && !e.worker).map((e) => `${e.id}.ts`),
      "standard-types.ts",
    ];
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(
      join(project, config),
      JSON.stringify({ compilerOptions: { ...compilerOptions, types: ["node"] }, files }),
    );
    await expect(run(join(BIN, "tsc"), ["-p", config], { cwd: project })).resolves.toBeDefined();
  });

  test("drainpipe streams where the DOM library's standard ones are expected", async () => {
    writeFileSync(join(project, "standard-types.ts"), STANDARD_TYPES);
    const config = `tsconfig.dom.${resolution}.json`;
    writeFileSync(
      join(project, config),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, lib: ["ES2023", "DOM", "DOM.AsyncIterable"], types: [] },
        files: ["standard-types.ts"],
      }),
    );
    await expect(run(join(BIN, "tsc"), ["-p", config], { cwd: project })).resolves.toBeDefined();
  });

  /** A module re-exporting each of `subpaths`, one file each; returns the files. */
  const reexports = (subpaths: readonly (typeof SUBPATHS)[number][]): string[] =>
    subpaths.map((subpath) => {
      const file = `reexport-${subpath === "." ? "root" : subpath.slice(2)}.ts`;
      const specifier = subpath === "." ? PACKAGE.name : `${PACKAGE.name}/${subpath.slice(2)}`;
      writeFileSync(join(project, file), `export * from "${specifier}";\n`);
      return file;
    });

  // What the "Types" paragraph of docs/library.md promises: the declarations name no platform global the consumer
  // may lack.
  test.each([
    ["ES2022 alone", ["ES2022"], []],
    ["the DOM library", ["ES2022", "DOM"], []],
    ["@types/node", ["ES2022"], ["node"]],
    ["@cloudflare/workers-types alone", ["ES2022"], ["@cloudflare/workers-types"]],
  ])("every subpath but ./worker type-checks with %s", async (label, lib, types) => {
    const config = `tsconfig.subpaths.${label.replace(/\W+/g, "-")}.${resolution}.json`;
    const files = reexports(SUBPATHS.filter((subpath) => subpath !== "./worker"));
    writeFileSync(
      join(project, config),
      JSON.stringify({ compilerOptions: { ...compilerOptions, lib, types }, files }),
    );
    await expect(run(join(BIN, "tsc"), ["-p", config], { cwd: project })).resolves.toBeDefined();
  });

  test("./worker type-checks with @cloudflare/workers-types alone", async () => {
    const config = `tsconfig.subpath-worker.${resolution}.json`;
    const compiler = { ...compilerOptions, lib: ["ES2022"], types: ["@cloudflare/workers-types"] };
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions: compiler, files: reexports(["./worker"]) }));
    await expect(run(join(BIN, "tsc"), ["-p", config], { cwd: project })).resolves.toBeDefined();
  });

  test("the library docs' worker, with the Workers types", async () => {
    const worker = examples.find((e) => e.worker)!;
    const config = `tsconfig.worker.${resolution}.json`;
    writeFileSync(
      join(project, config),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, types: ["@cloudflare/workers-types"] },
        files: [`${worker.id}.ts`],
      }),
    );
    await expect(run(join(BIN, "tsc"), ["-p", config], { cwd: project })).resolves.toBeDefined();
  });
});

test("wrangler bundles the library docs' worker, which serves the API under its prefix in local workerd", async () => {
  const worker = examples.find((e) => e.worker)!;
  const toml = examples.find((e) => e.lang === "toml")!;
  writeFileSync(
    join(project, "wrangler.toml"),
    `name = "consumer"\nmain = "${worker.id}.ts"\ncompatibility_date = "2026-11-01"\n\n${toml.code}\n`,
  );
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  await run(join(BIN, "wrangler"), ["deploy", "--dry-run", "--outdir", "out"], { cwd: project, env });
  const bundle = join(project, "out", `${worker.id}.js`);
  console.info(`consumer worker bundle: ${statSync(bundle).size} bytes`);

  process.env.WRANGLER_SEND_METRICS ??= "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const { unstable_dev } = await import("wrangler");
  const dev = await unstable_dev(bundle, {
    config: join(project, "wrangler.toml"),
    persistTo: join(project, "state"),
    vars: { API_TOKEN: "consumer-token" },
    logLevel: "warn",
    experimental: { disableExperimentalWarning: true },
  });
  try {
    const auth = { Authorization: "Bearer consumer-token" };
    expect(await (await dev.fetch("/")).text()).toBe("my own app");
    expect(await (await dev.fetch("/files")).text()).toBe("my own app");
    expect((await dev.fetch("/numbers/files")).status).toBe(401);
    const stored = await dev.fetch("/numbers/files/small?maxPartBytes=1024", {
      method: "POST",
      headers: auth,
      body: "5\n3\n-8\n",
    });
    expect(stored.status).toBe(201);
    expect(((await stored.json()) as { totals: { numbers: number } }).totals.numbers).toBe(3);
    const content = await dev.fetch("/numbers/files/small/content", { headers: auth });
    expect(await content.text()).toBe("5\n3\n-8\n");
    const listed = (await (await dev.fetch("/numbers/files", { headers: auth })).json()) as { files: unknown[] };
    expect(listed.files).toHaveLength(1);
    expect((await dev.fetch("/numbers/files/small", { method: "DELETE", headers: auth })).status).toBe(204);
  } finally {
    await dev.stop();
  }
}, 180_000);

test("the bin runs on Node 20, and without wrangler says how to get it", async () => {
  const bin = join(project, "node_modules", ".bin", "drainpipe");
  const help = await run(node20, [bin, "--help"], { cwd: project });
  expect(help.stdout).toContain("Usage: drainpipe");
  const primes = await run(node20, [bin, "primes", "5"], { cwd: project });
  expect(primes.stdout).toBe("2\n3\n5\n7\n11\n");
  const failed = await run(node20, [bin, "ls"], { cwd: project }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain("npm install --save-dev wrangler");
  expect(failed?.stderr).toContain("--url");
});

test("with wrangler beside it, the embedded mode runs the packaged worker (Node 24: wrangler needs 22)", async () => {
  symlinkSync(join(ROOT, "node_modules", "wrangler"), join(project, "node_modules", "wrangler"));
  const bin = join(project, "node_modules", ".bin", "drainpipe");
  const node24 = join(BIN, "node");
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  await run(node24, [bin, "primes", "1000", "-o", "primes.txt"], { cwd: project });
  const uploaded = await run(node24, [bin, "upload", "primes.txt", "--json", "--no-progress"], { cwd: project, env });
  const result = JSON.parse(uploaded.stdout) as { manifest: { totals: { numbers: number } } };
  expect(result.manifest.totals.numbers).toBe(1000);
  await run(node24, [bin, "verify", "primes.txt", "primes.txt"], { cwd: project, env });
  // The state lives in the working directory, not inside the installed package.
  expect(statSync(join(project, ".wrangler", "state")).isDirectory()).toBe(true);
}, 120_000);
