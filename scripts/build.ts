/**
 * `npm run build` (also `prepack`): the published package in `dist/`.
 *
 * - the library: one ESM entry per public layer (`dist/<layer>/index.js`) and for `dist/streams/iterable/index.js`
 *   (the `./iterable` subpath), bundled by esbuild with code splitting (shared code in `dist/chunks/`, so each entry
 *   loads only what it uses), source maps, and without the streams' debug assertions (`scripts/library-build.ts`);
 * - its declarations (`dist/<layer>/index.d.ts` and the modules they name), by tsc with `stripInternal`
 *   (`tsconfig.build.json`), relative specifiers rewritten from `.ts` to `.js`;
 * - the command line: `dist/cli/main.js` and the embedded worker's host script, with their dependencies bundled
 *   in, for Node 20 and later; wrangler stays outside (an optional peer dependency), and the embedded worker runs
 *   `dist/worker/index.js` with `dist/cli/wrangler.toml`, the project's configuration pointed at it (without its
 *   `[assets]`: the package does not ship the browser page);
 * - the browser page in `page-dist/` (`scripts/build-page.ts`), outside the package, for the worker that
 *   `npm start`, the CLI run from the sources and `wrangler deploy` run from the project.
 *
 * Usage: `node scripts/build.ts`.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { ASSERTION_LABEL } from "../src/streams/base/assert.ts";
import { buildPage } from "./build-page.ts";
import { libraryBuildOptions } from "./library-build.ts";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");

rmSync(DIST, { recursive: true, force: true });

await build({ absWorkingDir: ROOT, ...libraryBuildOptions("dist") });

execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
rewriteDeclarationSpecifiers(DIST);

await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/cli/main.ts", "src/cli/embedded-worker-host.ts"],
  outdir: "dist/cli",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  keepNames: true,
  dropLabels: [ASSERTION_LABEL],
  external: ["wrangler"],
  // The bundled CommonJS dependencies (commander, cli-progress, …) call `require` for Node's built-in modules.
  banner: {
    js:
      'import { createRequire as __drainpipeRequire } from "node:module";\n' +
      "const require = __drainpipeRequire(import.meta.url);",
  },
  logLevel: "warning",
});

const config = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const main = /^main = ".*"$/m;
if (!main.test(config)) throw new Error('wrangler.toml has no `main = "…"` line');
const assets = /\n(# .*\n)*\[assets\]\n([^[\n].*\n)*/;
if (!assets.test(config)) throw new Error("wrangler.toml has no [assets] table");
writeFileSync(
  join(DIST, "cli/wrangler.toml"),
  config
    .replace(main, 'main = "../worker/index.js"')
    .replace(assets, "")
    .replace(/^# .*\n(# .*\n)*/, "# The CLI's embedded worker.\n"),
);

await buildPage();

/** `from "./x.ts"` in the emitted declarations becomes `from "./x.js"`, the files the package ships. */
function rewriteDeclarationSpecifiers(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    const rewritten = text.replace(/(from\s+|import\(|import\s+)(["'])(\.\.?\/[^"']*)\.ts\2/g, "$1$2$3.js$2");
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}
