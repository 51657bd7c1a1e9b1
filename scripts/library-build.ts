/**
 * How `npm run build` bundles the library into `dist/`, shared with bench scenario 13 (bundle sizes), which builds
 * the same files into a directory of its own and measures what a page bundles from them.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BuildOptions } from "esbuild";
import { ASSERTION_LABEL } from "../src/streams/base/assert.ts";

const SOURCES = resolve(import.meta.dirname, "../src");

/** The layers published as subpaths, each `src/<layer>/index.ts`. */
export const LAYERS = ["streams", "numbers", "store", "split", "files", "worker"] as const;

/** Subpaths published beside the layers: a part of a layer with an entry of its own. */
export const EXTRA_ENTRIES = ["src/streams/iterable/index.ts"] as const;

/**
 * esbuild's options for the library, written to `outdir` (`dist` in the package): one ESM entry per public layer
 * (`<outdir>/<layer>/index.js`) and for `<outdir>/streams/iterable/index.js` (the `./iterable` subpath), bundled with
 * code splitting (shared code in `<outdir>/chunks/`, so each entry loads only what it uses), with source maps, and
 * without the streams' debug assertions (the statements labelled `DEBUG:`, see `src/streams/base/assert.ts`).
 *
 * Not `keepNames`: the files are not minified, so every class keeps its name as written (test/package checks
 * `ReadableStream.name` and the others on each runtime), while esbuild's `__name` calls, one per named function,
 * would survive a page's own minifying bundler and make the three stream classes alone some 5,700 bytes heavier
 * gzipped (bench scenario 13).
 *
 * The internal slots, `_camelCase` properties that the published declarations leave out, get short names
 * (`mangleProps`), the same in every file of the one build, which no page's minifier would do for them: some 900
 * bytes less gzipped for the three classes. A slot whose name the code also spells as a string (a brand check's
 * `hasOwnSlot(value, "_readableStreamController")`) keeps its name ({@link slotsNamedInStrings}).
 *
 * @example
 * ```ts
 * import { build } from "esbuild";
 * await build(libraryBuildOptions("dist"));
 * ```
 */
export function libraryBuildOptions(outdir: string): BuildOptions {
  return {
    entryPoints: [...LAYERS.map((layer) => `src/${layer}/index.ts`), ...EXTRA_ENTRIES],
    outbase: "src",
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // The streams' debug assertions (`src/streams/base/assert.ts`) run in the tests, never in the package.
    dropLabels: [ASSERTION_LABEL],
    mangleProps: /^_[A-Za-z]/,
    reserveProps: new RegExp(`^(?:${slotsNamedInStrings().join("|")})$`),
    sourcemap: true,
    external: ["cloudflare:workers"],
    logLevel: "warning",
  };
}

/**
 * Every `_name` that a source file under `src/` spells as a string literal (quoted or in backticks, comments
 * included), which a mangled build must leave as it is: esbuild renames properties, never the text of strings.
 *
 * @example
 * ```ts
 * slotsNamedInStrings().includes("_readableStreamController"); // true
 * ```
 */
export function slotsNamedInStrings(): string[] {
  const names = new Set<string>();
  for (const entry of readdirSync(SOURCES, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), "utf8");
    for (const match of text.matchAll(/["'`](_[A-Za-z]\w*)["'`]/g)) names.add(match[1]!);
  }
  return [...names].sort();
}
