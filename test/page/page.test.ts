/**
 * The browser page (issue 37, `src/page/`) in headless Chromium against the worker in local workerd
 * (`startEmbeddedWorker`, its chunk limit `MAX_SEGMENT_BYTES` lowered to 10 MB so that a 200 MB file goes in
 * many chunks): a 200 MB file picked in Uppy's Dashboard goes over tus in parallel partial uploads with its
 * progress shown and is stored byte for byte; a small file goes as one upload and downloads through its link
 * with the token; an upload pauses and resumes; a reload in the middle of an upload,
 * then the same file added again, continues from where the worker stopped; a bad line is shown with its line and
 * column, also one in a later part of a parallel upload.
 *
 * Screenshots of every case are kept in `test/.artifacts/page/` (gitignored) for a person to look at.
 * The test builds the page itself (`scripts/build-page.ts`) before it starts the worker. Without Chromium it is
 * skipped with one line saying how to install it (`apt-get install -y chromium`; `CHROMIUM_PATH` names another).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { findBrowser } from "../../harness/browsers.ts";
import { launchChromium, NO_CHROMIUM } from "../../harness/chromium.ts";
import { buildPage } from "../../scripts/build-page.ts";
import { writePrimes } from "../../src/cli/commands/primes.ts";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { TusTraffic } from "./tus-traffic.ts";

const CHROMIUM = findBrowser("chromium");
if (!CHROMIUM) console.warn(NO_CHROMIUM);

/** Where the screenshots go. */
const ARTIFACTS = resolve(import.meta.dirname, "../.artifacts/page");

/** The worker's `MAX_SEGMENT_BYTES` here, which the page must use as its tus chunk size. */
const SEGMENT_BYTES = 10_000_000;

/** The first 21,000,000 primes: 203,484,450 bytes. */
const LARGE = { count: 21_000_000, bytes: 203_484_450 };

/** How long a 200 MB upload may take on a loaded machine. */
const UPLOAD_TIMEOUT_MS = 240_000;

let directory: string;
let worker: EmbeddedWorker;
let context: BrowserContext;
/** The 200 MB file, and a copy of it (another file to Uppy: another modification time). */
let large: string;
let largeCopy: string;
/** What the pages threw (each test must leave it empty). */
const pageErrors: string[] = [];

describe.skipIf(!CHROMIUM)("the browser page in headless Chromium", () => {
  beforeAll(async () => {
    await buildPage();
    await mkdir(ARTIFACTS, { recursive: true });
    directory = await mkdtemp(join(tmpdir(), "drainpipe-page-"));
    large = join(directory, "primes-21e6.txt");
    largeCopy = join(directory, "resumed.txt");
    await writePrimes(LARGE.count, large, { progress: false });
    await copyFile(large, largeCopy);
    worker = await startEmbeddedWorker({
      stateDir: join(directory, "state"),
      vars: { MAX_SEGMENT_BYTES: String(SEGMENT_BYTES) },
    });
    context = await launchChromium(CHROMIUM!, join(directory, "profile"));
  }, 120_000);

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await context?.close();
    await worker?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  test("the page is public and asks for the token; the token from #token= connects", async () => {
    const page = await openPage("");
    await expect(page.title()).resolves.toBe("drainpipe");
    await expect(page.locator("h1").textContent()).resolves.toBe("drainpipe");
    await expect(page.locator("#connection").textContent()).resolves.toMatch(/enter the worker's API token/);
    await page.waitForSelector(".uppy-Dashboard-AddFiles");
    await page.fill("#token", "wrong");
    await page.click("#token-form button[type=submit]");
    await page.waitForSelector("#connection[data-state=failed]");
    await expect(page.locator("#connection").textContent()).resolves.toMatch(/refused this token \(401\)/);

    await page.goto(`${worker.url}/#token=${worker.token}`);
    await page.waitForSelector("#connection[data-state=connected]");
    expect(new URL(page.url()).hash).toBe(""); // the token leaves the address bar
    await expect(page.locator("#connection").textContent()).resolves.toMatch(/chunks of up to 10 MB/);
    await expect.poll(() => page.locator("#files-status").textContent()).toBe("No files stored yet.");
    await page.screenshot({ path: join(ARTIFACTS, "1-connected.png"), fullPage: true });
    await page.close();
  });

  test("a 200 MB file uploads in parallel tus parts of the worker's chunk size, with its progress shown", {
    timeout: UPLOAD_TIMEOUT_MS + 60_000,
  }, async () => {
    const page = await openPage(worker.token);
    const traffic = new TusTraffic(page, worker.url);
    await pickFile(page, large);
    await page.click(".uppy-StatusBar-actionBtn--upload");

    await expect.poll(() => traffic.accepted(), { timeout: UPLOAD_TIMEOUT_MS }).toBeGreaterThan(LARGE.bytes / 3);
    await expect
      .poll(() => page.locator("#progress").textContent(), { timeout: 10_000 })
      .toMatch(/^[\d.]+ MB of 203 MB · [\d.]+ MB\/s/);
    await page.screenshot({ path: join(ARTIFACTS, "2-uploading.png"), fullPage: true });

    await page.waitForSelector("#progress[data-done=true]", { timeout: UPLOAD_TIMEOUT_MS });
    await expect(page.locator("#progress").textContent()).resolves.toBe("Stored 1 file (203 MB).");
    await page.waitForSelector('#files-body tr[data-name="primes-21e6.txt"]');
    await page.screenshot({ path: join(ARTIFACTS, "3-stored.png"), fullPage: true });

    // Four partial uploads, then the final one that concatenates them; chunks of the worker's segment size.
    expect(traffic.creations.map((c) => c.concat?.split(";")[0])).toEqual([...Array(4).fill("partial"), "final"]);
    expect(traffic.creations.every((c) => c.status === 201)).toBe(true);
    expect(traffic.accepted()).toBe(LARGE.bytes);
    expect(Math.max(...traffic.patches.map((p) => (p.to ?? 0) - p.from))).toBe(SEGMENT_BYTES);
    await expect(storedDigest("primes-21e6.txt")).resolves.toBe(await fileDigest(large));
    expect(await unfinishedEntries(page)).toEqual([]);
    await page.close();
  });

  test("an upload pauses and resumes; after a reload the same file added again continues where it stopped", {
    timeout: 2 * UPLOAD_TIMEOUT_MS,
  }, async () => {
    const page = await openPage(worker.token);
    const traffic = new TusTraffic(page, worker.url);
    await pickFile(page, largeCopy);
    await page.click(".uppy-StatusBar-actionBtn--upload");

    // Pause: nothing goes while paused; resume: it goes on.
    await expect.poll(() => traffic.accepted(), { timeout: UPLOAD_TIMEOUT_MS }).toBeGreaterThan(LARGE.bytes / 6);
    await page.click('[data-cy=togglePauseResume][title="Pause"]');
    await page.waitForSelector('[data-cy=togglePauseResume][title="Resume"]');
    await page.waitForTimeout(500);
    await expect(page.locator("#progress").textContent()).resolves.toMatch(/^Paused at [\d.]+ MB of 203 MB\.$/);
    const whilePaused = traffic.patches.length;
    await page.screenshot({ path: join(ARTIFACTS, "4-paused.png"), fullPage: true });
    await page.waitForTimeout(2000);
    expect(traffic.patches.length).toBe(whilePaused);
    await page.click('[data-cy=togglePauseResume][title="Resume"]');

    await expect.poll(() => traffic.accepted(), { timeout: UPLOAD_TIMEOUT_MS }).toBeGreaterThan(LARGE.bytes / 3);
    await page.reload();
    const before = traffic.accepted();
    const mark = traffic.mark();
    expect(before).toBeLessThan(LARGE.bytes);

    // The page lists the upload the reload interrupted, and keeps the token (session storage).
    await page.waitForSelector("#connection[data-state=connected]");
    await page.waitForSelector("#unfinished:not([hidden]) li");
    await expect(page.locator("#unfinished-list").textContent()).resolves.toMatch(/^resumed\.txt, 203 MB, started /);
    await page.screenshot({ path: join(ARTIFACTS, "5-after-reload.png"), fullPage: true });

    await pickFile(page, largeCopy);
    await page.click(".uppy-StatusBar-actionBtn--upload");
    await page.waitForSelector("#progress[data-done=true]", { timeout: UPLOAD_TIMEOUT_MS });
    await expect(page.locator("#progress").textContent()).resolves.toBe("Stored 1 file (203 MB).");
    await page.waitForSelector('#files-body tr[data-name="resumed.txt"]');
    await page.screenshot({ path: join(ARTIFACTS, "6-resumed-and-stored.png"), fullPage: true });

    // No partial upload was created again: the page continued the four it had. Each one's first chunk after the
    // reload starts at or past what the worker had confirmed before it (bytes whose answer the reload cut off may
    // have been stored too), and the chunks after the reload sent only what the worker lacked.
    expect(traffic.creations.slice(mark.creations).map((c) => c.concat?.split(";")[0])).toEqual(["final"]);
    const confirmed = new Map<string, number>();
    for (const patch of traffic.patches.slice(0, mark.patches)) {
      if (patch.to !== undefined) confirmed.set(patch.url, Math.max(confirmed.get(patch.url) ?? 0, patch.to));
    }
    const resumedAt = new Map<string, number>();
    for (const patch of traffic.patches.slice(mark.patches)) {
      if (!resumedAt.has(patch.url)) resumedAt.set(patch.url, patch.from);
    }
    for (const [url, from] of resumedAt) expect(from).toBeGreaterThanOrEqual(confirmed.get(url) ?? 0);
    expect(Math.max(...resumedAt.values())).toBeGreaterThan(0);
    const sentAgain = traffic.accepted(mark);
    expect(sentAgain).toBeLessThanOrEqual(LARGE.bytes - before);
    console.info(
      `page resume: the worker confirmed ${before} bytes before the reload; after it the page sent ` +
        `${sentAgain} bytes, the partial uploads resuming at offsets ${[...resumedAt.values()].join(", ")}`,
    );
    await expect(storedDigest("resumed.txt")).resolves.toBe(await fileDigest(largeCopy));
    expect(await unfinishedEntries(page)).toEqual([]);
    await expect(page.locator("#unfinished").isHidden()).resolves.toBe(true);
    await page.close();
  });

  test("a small file goes as one tus upload, and its download link fetches it with the token", async () => {
    const small = join(directory, "small numbers.txt");
    await writeFile(small, "3\n-1\n2\n");
    const page = await openPage(worker.token);
    const traffic = new TusTraffic(page, worker.url);
    await pickFile(page, small);
    await page.click(".uppy-StatusBar-actionBtn--upload");
    await page.waitForSelector("#progress[data-done=true]");
    await expect(page.locator("#progress").textContent()).resolves.toBe("Stored 1 file (7 B).");
    expect(traffic.creations.map((c) => c.concat)).toEqual([undefined]);
    // The worker stores it under the name with the space replaced, as the CLI would.
    const row = page.locator('#files-body tr[data-name="small-numbers.txt"]');
    await row.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), row.locator("a.download").click()]);
    expect(download.suggestedFilename()).toBe("small-numbers.txt");
    await expect(readFile(await download.path(), "utf8")).resolves.toBe("3\n-1\n2\n");
    await page.close();
  });

  test("a bad line shows its line and column", async () => {
    const bad = join(directory, "bad.txt");
    await writeFile(bad, "1\n2\n3x\n4\n");
    const page = await openPage(worker.token);
    await pickFile(page, bad);
    await page.click(".uppy-StatusBar-actionBtn--upload");
    await page.waitForSelector("#upload-error:not([hidden])");
    await expect(page.locator("#upload-error-title").textContent()).resolves.toBe('"bad.txt" has a bad line');
    await expect(page.locator("#upload-error-position").textContent()).resolves.toBe(
      "Line 3, column 2 (byte offset 5)",
    );
    await expect(page.locator("#upload-error-detail").textContent()).resolves.toMatch(/line 3/);
    await expect(page.locator("#progress").textContent()).resolves.toBe("Nothing stored: 1 file failed.");
    await page.screenshot({ path: join(ARTIFACTS, "7-bad-line.png"), fullPage: true });
    await expect.poll(() => unfinishedEntries(page)).toEqual([]);
    await page.close();
  });

  test("a bad line in a later part of a parallel upload shows its line in the whole file", {
    timeout: 120_000,
  }, async () => {
    const badLine = 900_000;
    const { path, column, offset } = await primesWithBadLine(join(directory, "bad-late.txt"), 1_000_000, badLine);
    const page = await openPage(worker.token);
    const traffic = new TusTraffic(page, worker.url);
    await pickFile(page, path);
    await page.click(".uppy-StatusBar-actionBtn--upload");
    await page.waitForSelector("#upload-error:not([hidden])", { timeout: 100_000 });
    expect(traffic.creations.filter((c) => c.concat === "partial")).toHaveLength(4);
    await expect(page.locator("#upload-error-position").textContent()).resolves.toBe(
      `Line ${badLine}, column ${column} (byte offset ${offset})`,
    );
    await page.screenshot({ path: join(ARTIFACTS, "8-bad-line-in-a-late-part.png"), fullPage: true });
    await page.close();
  });
});

/** A new tab on the page, with `token` in its fragment (none when empty); its script errors go to `pageErrors`. */
async function openPage(token: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(token === "" ? `${worker.url}/` : `${worker.url}/#token=${token}`);
  await page.waitForSelector(".uppy-Dashboard-input", { state: "attached" });
  if (token !== "") await page.waitForSelector("#connection[data-state=connected]");
  return page;
}

/** Picks `path` in the Dashboard's file input, as a person choosing it in the file dialog. */
async function pickFile(page: Page, path: string): Promise<void> {
  await page.locator(".uppy-Dashboard-input:not([webkitdirectory])").first().setInputFiles(path);
  await page.waitForSelector(".uppy-StatusBar-actionBtn--upload");
}

/** The page's entries of unfinished tus uploads in `localStorage`. */
function unfinishedEntries(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("tus::")));
}

async function fileDigest(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The SHA-256 of what `GET /files/<name>/content` answers. */
async function storedDigest(name: string): Promise<string> {
  const response = await fetch(`${worker.url}/files/${name}/content`, {
    headers: { Authorization: `Bearer ${worker.token}` },
  });
  expect(response.status).toBe(200);
  const hash = createHash("sha256");
  for await (const chunk of response.body!) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * Writes the first `count` primes to `path` with an `x` after the number on line `line` (1-based); returns the
 * column and byte offset of that `x`.
 */
async function primesWithBadLine(
  path: string,
  count: number,
  line: number,
): Promise<{ path: string; column: number; offset: number }> {
  await writePrimes(count, path, { progress: false });
  const lines = (await readFile(path, "latin1")).split("\n");
  const offset = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + lines[line - 1]!.length;
  const column = lines[line - 1]!.length + 1;
  lines[line - 1] += "x";
  await writeFile(path, lines.join("\n"), "latin1");
  expect((await stat(path)).size).toBeGreaterThan(4 << 20); // large enough for four partial uploads
  return { path, column, offset };
}
