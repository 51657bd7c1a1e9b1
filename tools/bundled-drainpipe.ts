/**
 * Serves drainpipe's streams to the vitest benchmarks (scenarios 1 and 2) as one bundled module, the form users
 * run: wrangler bundles a worker with esbuild, and a published package ships built files.
 *
 * Why: vitest runs `src/` through vite's module transform, which turns every call to an imported function into a
 * property load on the imported module's namespace object (`(0, __vite_ssr_import_3__.fn)(…)`). drainpipe's hot
 * paths call across its own modules on every chunk, so measured straight from `src/` inside vitest it runs about
 * 3.5× slower than the same code bundled, while the native streams it is compared with pay nothing of the sort.
 * Inside one bundle those calls are plain calls again.
 *
 * Only `bench/implementations/registry.ts`' import of `src/streams/index.ts` is redirected; every other module keeps
 * importing `src/`. The bundle is built when that import is first resolved and written to `bench/.cache/`.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "vitest/config";
import { ASSERTION_LABEL } from "../src/streams/base/assert.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The module the benchmarks compare: drainpipe's streams, as `bench/implementations/registry.ts` imports them. */
const ENTRY = resolve(ROOT, "src/streams/index.ts");
/** The importer whose import of {@link ENTRY} is redirected to the bundle. */
const IMPORTER = resolve(ROOT, "bench/implementations/registry.ts");
/** Where the bundle is written. */
export const BUNDLE_PATH = resolve(ROOT, "bench/.cache/drainpipe-streams.js");

/**
 * Bundles `src/streams/index.ts` (or `entry`, such as the same file in another checkout) into one ES module at
 * `outfile` (not minified, so profiles stay readable), with `keepNames` as wrangler bundles it (its default): that
 * option makes every named function created at run time pay for setting its `name`, so measuring without it would
 * flatter code that creates functions per stream or per chunk. Like `npm run build`, it drops the streams' debug
 * assertions (`src/streams/base/assert.ts`).
 *
 * @throws when esbuild reports an error.
 *
 * @example
 * ```ts
 * await bundleDrainpipeStreams("/tmp/drainpipe-streams.js");
 * const { ReadableStream } = await import("/tmp/drainpipe-streams.js");
 * ```
 */
export async function bundleDrainpipeStreams(outfile: string = BUNDLE_PATH, entry: string = ENTRY): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    keepNames: true,
    // Without the debug assertions, as the package ships (`src/streams/base/assert.ts`).
    dropLabels: [ASSERTION_LABEL],
    logLevel: "silent",
  });
  return outfile;
}

/**
 * A vite plugin that resolves `bench/implementations/registry.ts`' import of `src/streams/index.ts` to the bundle,
 * built the first time that import is resolved.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * { plugins: [bundledDrainpipe()], test: { name: "bench-node", benchmark: { include: ["bench/**\/*.bench.ts"] } } }
 * ```
 */
export function bundledDrainpipe(): Plugin {
  let built: Promise<string> | undefined;
  return {
    name: "drainpipe:bundled-streams",
    enforce: "pre",
    async resolveId(source, importer) {
      if (importer === undefined || resolve(importer.split("?")[0]!) !== IMPORTER) return null;
      if (resolve(dirname(IMPORTER), source) !== ENTRY) return null;
      built ??= bundleDrainpipeStreams();
      return await built;
    },
  };
}
