/**
 * The bench page's script for one implementation: `12-browsers.page.ts` serving either the browser's own stream
 * classes or drainpipe's (bundled from `src/streams`), built once here for scenario 12 and its Firefox tools
 * (`12-browsers.ab.ts`, `.jobs.ts`, `.profile.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { NATIVE } from "../implementations/streams-implementation.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Bundles the bench page for one implementation, as an IIFE for a browser.
 *
 * @param name the implementation the page reports: {@linkcode NATIVE} serves the browser's own classes, any other
 * name drainpipe's
 * @param plugins esbuild plugins for the build, e.g. one that swaps an internal helper of drainpipe
 * @returns the bundle's text
 */
export async function benchPageBundle(name: string, plugins: Plugin[] = []): Promise<string> {
  const native = name === NATIVE;
  const drainpipe = native
    ? ""
    : `import * as drainpipe from ${JSON.stringify(resolve(ROOT, "src/streams/index.ts"))};\n`;
  const classes = native ? "globalThis" : "drainpipe";
  const entry =
    `import { serve } from ${JSON.stringify(resolve(import.meta.dirname, "12-browsers.page.ts"))};\n` +
    `import { classesOf } from ${JSON.stringify(resolve(ROOT, "bench/implementations/streams-implementation.ts"))};\n` +
    `${drainpipe}serve({ name: ${JSON.stringify(name)}, runtimes: [], ...classesOf(${classes}) });\n`;
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    plugins,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
