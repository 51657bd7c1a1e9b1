/**
 * The package's consumer examples in Chromium and Firefox: every library example of the docs that is not the
 * worker module (`libraryExamples`, the blocks `test/package/consumer.test.ts` runs against the packed package on
 * Node, Deno and Bun) bundled by esbuild for the browser, `drainpipe-streams` and its subpaths resolved to their
 * sources, run as a module in a page under `script-src 'self'`, printing what its comments promise; and the
 * runtime smoke checks (`test/runtimes/smoke-checks.ts`) in a page and in a dedicated worker.
 *
 * A browser that is not installed is skipped with one line saying how to install it.
 *
 * @module
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BROWSERS,
  findBrowser,
  launchBrowser,
  missingBrowserLine,
  type RunningBrowser,
} from "../../harness/browsers.ts";
import { htmlPage, type PageServer, script, startServer } from "../../harness/page-server.ts";
import { expectedOutput, libraryExamples } from "../package/doc-blocks.ts";
import { bundleScript } from "./bundle.ts";
import type { ExampleOutput } from "./pages/example-capture.ts";
import type { SmokeOutcome } from "./pages/smoke-page.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGES = resolve(import.meta.dirname, "pages");
const examples = libraryExamples(ROOT).filter((example) => example.lang === "ts" && !example.worker);

/** Resolves `drainpipe-streams` and its subpaths to the sources their `exports` are built from. */
function packageSources(): Plugin {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { import?: string }>;
  };
  return {
    name: "drainpipe-streams sources",
    setup(plugin) {
      plugin.onResolve({ filter: new RegExp(`^${manifest.name}(/|$)`) }, (args) => {
        const target = manifest.exports[`.${args.path.slice(manifest.name.length)}`];
        const file = typeof target === "object" ? target.import : undefined;
        if (file === undefined) return { errors: [{ text: `${args.path} is not a subpath of the package` }] };
        return { path: join(ROOT, file.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")) };
      });
    },
  };
}

/** The example as one ES module: the capture first, then the example, then the signal that it finished. */
async function bundleExample(code: string, directory: string, id: string): Promise<string> {
  const file = join(directory, `${id}.ts`);
  writeFileSync(file, code);
  const capture = JSON.stringify(join(PAGES, "example-capture.ts"));
  const entry = `import { exampleFinished } from ${capture};\nimport ${JSON.stringify(file)};\nexampleFinished();\n`;
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    plugins: [packageSources()],
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/**
 * The smoke checks that fail in both browsers, and how: `new Response(drainpipeStream)` works on Node, Deno, Bun
 * and workerd (they read any async iterable), but a browser's `Response` takes a stream that is not its own for an
 * ordinary object and sends its string, "[object ReadableStream]"; `toNativeStream` is the way there
 * (`safe.test.ts` checks it).
 */
const BROWSER_FAILURES = {
  "host crossing: Response.body into drainpipe (fromNativeStream) and drainpipe into a Response":
    "Error: Check failed: a Response reads a drainpipe stream",
};

for (const name of BROWSERS) {
  const binary = findBrowser(name);
  if (!binary) console.warn(missingBrowserLine(name, "test/browsers/examples.test.ts"));

  describe.skipIf(!binary)(`the package's consumer examples in ${name}`, () => {
    let browser: RunningBrowser;
    let server: PageServer;
    let directory: string;

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), "drainpipe-examples-"));
      server = await startServer();
      for (const example of examples) {
        server.files.set(`/${example.id}/`, htmlPage([`/${example.id}/example.mjs`]));
        server.files.set(
          `/${example.id}/example.mjs`,
          script(await bundleExample(example.code, directory, example.id)),
        );
      }
      server.files.set("/smoke/", htmlPage(["/smoke/smoke.js"]));
      server.files.set("/smoke/smoke.js", script(await bundleScript(join(PAGES, "smoke-page.ts"))));
      browser = await launchBrowser(name, binary!);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (directory) rmSync(directory, { recursive: true, force: true });
    });

    test("there are library examples to run", () => {
      expect(examples.length).toBeGreaterThanOrEqual(6);
    });

    for (const example of examples) {
      test(`${example.file}:${example.line} prints what its comments say`, async () => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${server.origin}/${example.id}/`);
          const output: ExampleOutput = await page.evaluate(
            () => (globalThis as unknown as { exampleOutput: Promise<ExampleOutput> }).exampleOutput,
            0,
          );
          expect(output.error).toBeUndefined();
          expect(output.lines.join("\n")).toBe(expectedOutput(example.code));
        } finally {
          await context.close();
        }
      });
    }

    for (const inWorker of [false, true]) {
      test(`the runtime smoke checks pass in ${inWorker ? "a dedicated worker" : "a page"}`, async () => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${server.origin}/smoke/`);
          const outcomes: SmokeOutcome[] = await page.evaluate(
            (worker) =>
              (globalThis as unknown as { smokeResults(worker: boolean): Promise<SmokeOutcome[]> }).smokeResults(
                worker,
              ),
            inWorker,
          );
          expect(outcomes.length).toBeGreaterThan(10);
          const failed = outcomes.filter((outcome) => outcome.error !== null);
          expect(Object.fromEntries(failed.map(({ name, error }) => [name, error]))).toEqual(BROWSER_FAILURES);
        } finally {
          await context.close();
        }
      });
    }
  });
}
