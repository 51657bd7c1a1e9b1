/**
 * esbuild bundles of the scripts the browser tests and benchmarks load: one classic script (an IIFE) per entry,
 * drainpipe's streams bundled in from `src/`, as a web application's bundler would.
 *
 * @module
 */
import { build } from "esbuild";

/** How a bundle is built: plainly, or minified with every identifier (class names included) mangled. */
export type BundleStyle = "plain" | "minified";

/**
 * Bundles `entry` (a path) into one classic script and resolves with its text. `minified` is esbuild's `--minify`
 * (whitespace, syntax and identifiers) with `keepNames: false`: drainpipe's classes lose their names, as they do in
 * a web application's production build. `keepNames` keeps every class's and function's `name` (the WPT runner
 * needs it: a bundled class shadowing a global is otherwise renamed, `ReadableStream` becoming `ReadableStream2`).
 *
 * @example
 * ```ts
 * const text = await bundleScript("test/browsers/pages/safe-page.ts", "minified");
 * ```
 */
export async function bundleScript(entry: string, style: BundleStyle = "plain", keepNames = false): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: style === "minified",
    keepNames,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`Cannot bundle ${entry}: esbuild produced no output`);
  return output.text;
}
