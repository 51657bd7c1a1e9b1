/**
 * `npm run build:page` (also part of `npm run build`, and run before `npm start`): the browser page of
 * `src/page/` bundled by esbuild into `page-dist/`, the directory `wrangler.toml` serves as the worker's static
 * assets (`/` is `page-dist/index.html`). Everything the page needs is in the bundle (Uppy, its styles,
 * tus-js-client): it loads nothing from elsewhere.
 *
 * `page-dist/.assetsignore` is committed, so the directory exists in a fresh clone and wrangler starts without a
 * built page (the worker's API then answers alone); the rest of `page-dist/` is ignored by git and by the npm
 * package. A file is written only when its content changes, so a running `wrangler dev` reloads only on real
 * changes.
 *
 * Usage: `node scripts/build-page.ts`.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");

/** Where the page is built: the `[assets]` directory of `wrangler.toml`. */
export const PAGE_DIST = join(ROOT, "page-dist");

/** The file of the assets directory that is not built: wrangler reads it and never serves it. */
const KEPT = ".assetsignore";

/**
 * Bundles the page into `outdir` (default {@linkcode PAGE_DIST}): `index.html`, `page.js` and `page.css`, and
 * removes any other file there but `.assetsignore`. Returns the paths of the files, absolute.
 *
 * @example
 * ```ts
 * await buildPage(); // page-dist/index.html, page-dist/page.js, page-dist/page.css
 * ```
 */
export async function buildPage(outdir: string = PAGE_DIST): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { page: "src/page/main.ts", "page-style": "src/page/page.css" },
    entryNames: "[name]",
    outdir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["chrome120", "firefox120", "safari17"],
    minify: true,
    legalComments: "eof",
    write: false,
    logLevel: "warning",
  });
  const outputs = new Map<string, Uint8Array>();
  for (const file of result.outputFiles) {
    // `page-style.css` is the page's stylesheet: `page.css`, as `index.html` names it.
    const name = basename(file.path) === "page-style.css" ? "page.css" : basename(file.path);
    outputs.set(name, file.contents);
  }
  outputs.set("index.html", readFileSync(join(ROOT, "src/page/index.html")));
  mkdirSync(outdir, { recursive: true });
  for (const entry of readdirSync(outdir)) {
    if (entry !== KEPT && !outputs.has(entry)) rmSync(join(outdir, entry), { recursive: true, force: true });
  }
  for (const [name, contents] of outputs) writeIfChanged(join(outdir, name), contents);
  return [...outputs.keys()].map((name) => join(outdir, name));
}

function writeIfChanged(path: string, contents: Uint8Array): void {
  let current: Buffer | undefined;
  try {
    current = readFileSync(path);
  } catch {
    current = undefined;
  }
  if (current?.equals(contents)) return;
  writeFileSync(path, contents);
}

if (import.meta.main) {
  const files = await buildPage();
  console.info(`drainpipe: built the page in ${PAGE_DIST} (${files.map((file) => basename(file)).join(", ")})`);
}
