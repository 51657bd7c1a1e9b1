/**
 * Form uploads over real HTTP to the worker in local workerd (`startEmbeddedWorker`): `curl -F file=@…` and an HTML
 * form (`enctype="multipart/form-data"`, a file input) submitted in headless Chromium store the file as one raw POST
 * of it stores it, and a bad line comes back with the file's own line and column. The form goes with the bearer
 * token as a header the browser context adds (a plain HTML form cannot set one). Without Chromium the browser case
 * is skipped with one line saying how to install it.
 *
 * @module
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findBrowser } from "../../harness/browsers.ts";
import { launchChromium, NO_CHROMIUM } from "../../harness/chromium.ts";
import { writePrimes } from "../../src/cli/commands/primes.ts";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";

const CHROMIUM = findBrowser("chromium");
if (!CHROMIUM) console.warn(NO_CHROMIUM);

let directory: string;
let worker: EmbeddedWorker;
let primes: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-forms-"));
  primes = join(directory, "primes.txt");
  await writePrimes(200_000, primes, { progress: false });
  worker = await startEmbeddedWorker({ stateDir: join(directory, "state") });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** `curl -sS -F file=@<path> <worker>/files/<name>` with the token; resolves with the status and the body. */
async function curlForm(path: string, name: string): Promise<{ status: number; body: string }> {
  const { stdout } = await promisify(execFile)("curl", [
    "-sS",
    "-w",
    "\n%{http_code}",
    "-H",
    `Authorization: Bearer ${worker.token}`,
    "-F",
    `file=@${path}`,
    `${worker.url}/files/${name}`,
  ]);
  const at = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

async function content(name: string): Promise<Buffer> {
  const response = await fetch(`${worker.url}/files/${name}/content`, {
    headers: { Authorization: `Bearer ${worker.token}` },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("form uploads over HTTP", () => {
  test("curl -F stores the file as a raw POST of it does; a bad line is the file's own", async () => {
    const formed = await curlForm(primes, "by-curl-form");
    expect(formed.status, formed.body).toBe(201);
    const raw = await fetch(`${worker.url}/files/by-raw-post`, {
      method: "POST",
      headers: { Authorization: `Bearer ${worker.token}` },
      body: new Uint8Array(await readFile(primes)),
    });
    expect(raw.status).toBe(201);
    expect((await content("by-curl-form")).equals(await content("by-raw-post"))).toBe(true);
    const bad = join(directory, "bad.txt");
    await writeFile(bad, "10\n20\n3o\n");
    const refused = await curlForm(bad, "bad-form");
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error: "invalid-number", line: 3, column: 2, offset: 7 });
  });

  test.skipIf(!CHROMIUM)(
    "an HTML form with a file input, submitted in Chromium, stores the file",
    {
      timeout: 60_000,
    },
    async () => {
      const context = await launchChromium(CHROMIUM!, join(directory, "profile"));
      try {
        await context.setExtraHTTPHeaders({ Authorization: `Bearer ${worker.token}` });
        const page = await context.newPage();
        await page.goto(`${worker.url}/files`);
        await page.setContent(
          `<form method="post" enctype="multipart/form-data" action="${worker.url}/files/by-html-form">` +
            '<input type="text" name="note" value="a field beside the file"><input type="file" name="file">' +
            '<button type="submit">Upload</button></form>',
        );
        await page.locator("input[type=file]").setInputFiles(primes);
        const [answer] = await Promise.all([
          page.waitForResponse((response) => response.url().endsWith("/files/by-html-form")),
          page.click("button[type=submit]"),
        ]);
        expect(answer.status()).toBe(201);
        expect(((await answer.json()) as { totals: { numbers: number } }).totals.numbers).toBe(200_000);
        expect((await content("by-html-form")).equals(await content("by-curl-form"))).toBe(true);
      } finally {
        await context.close();
      }
    },
  );
});
