/**
 * The browser page against a worker on the Workers Free settings docs/http-api.md gives (`PLAN=free`,
 * `MAX_SEGMENT_BYTES=2500000`), in headless Chromium: a file of several MB goes as one tus upload in chunks of the
 * worker's limit, never as parallel partial uploads (the request that joins those stores the whole file, more than
 * a Free request may do), and is stored byte for byte. Skipped without Chromium, with one line saying how to install
 * it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findBrowser } from "../../harness/browsers.ts";
import { launchChromium, NO_CHROMIUM } from "../../harness/chromium.ts";
import { buildPage } from "../../scripts/build-page.ts";
import { writePrimes } from "../../src/cli/commands/primes.ts";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { TusTraffic } from "./tus-traffic.ts";

const CHROMIUM = findBrowser("chromium");
if (!CHROMIUM) console.warn(NO_CHROMIUM);

/** The Free plan's chunk limit docs/http-api.md gives. */
const SEGMENT_BYTES = 2_500_000;

let directory: string;
let worker: EmbeddedWorker;
let context: BrowserContext;

describe.skipIf(!CHROMIUM)("the browser page on the Workers Free settings", () => {
  beforeAll(async () => {
    await buildPage();
    directory = await mkdtemp(join(tmpdir(), "drainpipe-page-free-"));
    worker = await startEmbeddedWorker({
      stateDir: join(directory, "state"),
      vars: { PLAN: "free", MAX_SEGMENT_BYTES: String(SEGMENT_BYTES) },
    });
    context = await launchChromium(CHROMIUM!, join(directory, "profile"));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await worker?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  test("a file of several MB goes as one upload in chunks of the worker's limit", { timeout: 120_000 }, async () => {
    const path = join(directory, "free-plan.txt");
    await writePrimes(1_000_000, path, { progress: false });
    const page = await context.newPage();
    const traffic = new TusTraffic(page, worker.url);
    await page.goto(`${worker.url}/#token=${worker.token}`);
    await page.waitForSelector("#connection[data-state=connected]");
    await page.locator(".uppy-Dashboard-input:not([webkitdirectory])").first().setInputFiles(path);
    await page.click(".uppy-StatusBar-actionBtn--upload");
    await page.waitForSelector("#progress[data-done=true]", { timeout: 100_000 });
    expect(traffic.creations.map((creation) => creation.concat)).toEqual([undefined]);
    expect(Math.max(...traffic.patches.map((patch) => (patch.to ?? 0) - patch.from))).toBe(SEGMENT_BYTES);
    const stored = await fetch(`${worker.url}/files/free-plan.txt/content`, {
      headers: { Authorization: `Bearer ${worker.token}` },
    });
    const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    expect(digest(new Uint8Array(await stored.arrayBuffer()))).toBe(digest(await readFile(path)));
    await page.close();
  });
});
