/**
 * Scenario 13: what drainpipe costs a page to download. Each subpath of the package (`package.json`'s `exports`,
 * built as `npm run build` builds `dist/`, by `scripts/library-build.ts`, into a directory of its own), and the
 * three standard classes alone (`ReadableStream`, `WritableStream`,
 * `TransformStream` imported, nothing else), bundled by esbuild with `--minify` as a web application's bundler
 * would, then compressed with gzip at level 9; beside them web-streams-polyfill's ponyfill, whole and with the same
 * three classes imported. Sizes are bytes, not times: one run is exact, and reruns give the same figures.
 *
 * Run alone: `npx node bench/scenarios/13-bundle-sizes.ts`.
 *
 * @module
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { libraryBuildOptions } from "../../scripts/library-build.ts";
import { runAlone } from "../harness/run-alone.ts";
import { defineScenario } from "../harness/scenario.ts";
import type { OutputCheck, ScenarioResult } from "../harness/scenario-result.ts";
import { significant } from "../harness/stats.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const THREE = "ReadableStream, TransformStream, WritableStream";
const POLYFILL = "web-streams-polyfill";

/** One bundle measured: its label and the module text it is built from (resolved from the project root). */
interface Subject {
  label: string;
  entry: string;
  /** Whether it is one of the polyfill's (the ratios' denominators). */
  polyfill?: true;
}

/** Every subpath of the package with its entry in `built` (a build of `dist/`), in `exports` order. */
async function subpaths(built: string): Promise<{ subpath: string; source: string }[]> {
  const manifest = JSON.parse(await readFile(resolve(ROOT, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { import?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const file = typeof target === "string" ? undefined : target.import;
    if (file === undefined) return [];
    return [{ subpath: `${manifest.name}${subpath.slice(1)}`, source: join(built, file.replace(/^\.\/dist\//, "")) }];
  });
}

/** Bundles `entry` minified (`cloudflare:` modules left external, as workerd provides them) into an ES module. */
async function minified(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    external: ["cloudflare:*"],
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Whether the three classes of a minified bundle pipe 100 numbers through a transform and sum them right. */
async function threeClassesWork(code: string): Promise<boolean> {
  const directory = await mkdtemp(join(tmpdir(), "drainpipe-sizes-"));
  try {
    const file = join(directory, "bundle.mjs");
    await writeFile(file, code);
    const streams = (await import(pathToFileURL(file).href)) as {
      ReadableStream: typeof ReadableStream;
      WritableStream: typeof WritableStream;
      TransformStream: typeof TransformStream;
    };
    let next = 0;
    let sum = 0;
    await new streams.ReadableStream<number>({
      pull(controller) {
        controller.enqueue(next++);
        if (next === 100) controller.close();
      },
    })
      .pipeThrough(new streams.TransformStream<number, number>())
      .pipeTo(
        new streams.WritableStream<number>({
          write(chunk) {
            sum += chunk;
          },
        }),
      );
    return sum === 4950;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Scenario 13. */
export const scenario = defineScenario<Record<string, never>>({
  id: "bundle-sizes",
  title: "Bundle sizes",
  measures:
    "bytes of every package subpath and of the three standard classes alone, bundled by esbuild --minify, then " +
    "gzip -9; beside web-streams-polyfill's ponyfill, whole and with the same three classes imported.",
  why:
    "a page downloads what it imports: the three classes alone should cost at most 1.2× the polyfill (issue 39), " +
    "and what a page does not import (extensions, adapters, bridges, the fused engine) should tree-shake away.",
  options: {},
  quick: {},
  async run(): Promise<ScenarioResult[]> {
    const built = await mkdtemp(join(tmpdir(), "drainpipe-dist-"));
    try {
      await build({ ...libraryBuildOptions(built), absWorkingDir: ROOT, sourcemap: false, logLevel: "silent" });
      // What the installed package's manifest tells a bundler about these files: ES modules, which have side effects.
      const { type, sideEffects } = JSON.parse(await readFile(resolve(ROOT, "package.json"), "utf8"));
      await writeFile(join(built, "package.json"), JSON.stringify({ type, sideEffects }));
      return await measure(built);
    } finally {
      await rm(built, { recursive: true, force: true });
    }
  },
});

/** Every bundle's sizes, the package's files built into `built`. */
async function measure(built: string): Promise<ScenarioResult[]> {
  const streams = join(built, "streams/index.js");
  const subjects: Subject[] = [
    ...(await subpaths(built)).map(({ subpath, source }) => ({
      label: `${subpath} (everything)`,
      entry: `export * from ${JSON.stringify(source)};`,
    })),
    { label: `drainpipe-streams: ${THREE} only`, entry: `export { ${THREE} } from ${JSON.stringify(streams)};` },
    { label: `${POLYFILL} (everything)`, entry: `export * from "${POLYFILL}";`, polyfill: true },
    { label: `${POLYFILL}: ${THREE} only`, entry: `export { ${THREE} } from "${POLYFILL}";`, polyfill: true },
  ];
  const measured = await Promise.all(
    subjects.map(async (subject) => {
      const code = await minified(subject.entry);
      return {
        ...subject,
        code,
        minifiedBytes: Buffer.byteLength(code),
        gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
      };
    }),
  );
  const polyfillThree = measured.find((row) => row.polyfill && row.label.endsWith("only"))!;
  const checks: OutputCheck[] = [];
  for (const row of measured.filter((candidate) => candidate.label.endsWith("only"))) {
    checks.push({
      variant: row.label,
      ok: await threeClassesWork(row.code),
      detail: "the minified bundle's three classes pipe 0 … 99 through a TransformStream and sum 4,950",
    });
  }
  const ratio = (bytes: number): number => significant(bytes / polyfillThree.gzippedBytes);
  return [
    {
      id: "bundle-sizes",
      title: "bundle sizes, esbuild --minify then gzip -9",
      runtime: `esbuild ${(await import("esbuild")).version}`,
      columns: ["bundle", "minified B", "gzipped B", `gzipped ÷ ${POLYFILL}'s three classes`],
      rows: measured.map((row) => ({
        bundle: row.label,
        "minified B": row.minifiedBytes,
        "gzipped B": row.gzippedBytes,
        [`gzipped ÷ ${POLYFILL}'s three classes`]: ratio(row.gzippedBytes),
      })),
      notes: [
        "Each subpath is bundled from the package's own files (`dist/`, built as `npm run build` builds it, with " +
          "package.json's `sideEffects` beside them) as `export * from` it, so everything it exports counts; " +
          '`cloudflare:` modules stay external. "only" ' +
          `rows import ${THREE} and nothing else, so what they do not need can tree-shake away. esbuild bundles ` +
          "for the browser (format esm, target es2022, --minify), then node:zlib gzips at level 9 (the gzip " +
          "command's -9 gives sizes within some 40 bytes of these).",
        `Goal (issue 39): drainpipe's three classes alone within 1.2× ${POLYFILL}'s, gzipped.`,
      ],
      speedups: [],
      checks,
    },
  ];
}

if (import.meta.main) await runAlone(import.meta.filename, scenario);
