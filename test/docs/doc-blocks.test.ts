import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureNode26, STREAM_ITER_FLAG } from "../../scripts/node26.ts";
import { prepareDevToken } from "../../src/cli/dev-token.ts";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { CLI_COMMAND, runShell, shellEnv } from "../cli/cli-runner.ts";
import { type DocBlock, docBlocks, docFiles, expectedOutput } from "../package/doc-blocks.ts";

// Every fenced block of the README and of docs/*.md is run by a test (here, or where the table below says) or says
// why it cannot be: a block added without either fails the first test.
const ROOT = resolve(import.meta.dirname, "../..");
const API = "docs/http-api.md";
const SESSIONS = "Upload sessions: files of any size";
const TUS = "Uploading from a browser or a tus client";
const FILES = docFiles(ROOT);
const blocks = (
  await Promise.all(FILES.map(async (file) => docBlocks(file, await readFile(join(ROOT, file), "utf8"))))
).flat();

/** How each block is covered, by its file, its section and the start of its first line. */
const COVERAGE: { file: string; section: string; starts: string; by: string }[] = [
  {
    file: "README.md",
    section: "Quick start",
    starts: "npm install && npm run demo",
    by:
      "not run as written (it installs the clone and runs the whole suite); the demo's script runs below, and " +
      "npm run build's script in runBuiltCli (test/cli/cli-runner.ts)",
  },
  { file: "README.md", section: "HTTP", starts: "TOKEN=$(sed", by: "here" },
  { file: "README.md", section: "Command line", starts: "npx drainpipe primes", by: "here" },
  {
    file: "README.md",
    section: "Library",
    starts: "npm pack",
    by: "test/package/consumer.test.ts, which packs the tarball and installs it into an empty project",
  },
  { file: "README.md", section: "Library", starts: "import {", by: "test/package/consumer.test.ts" },
  { file: "docs/library.md", section: "Install and use", starts: "", by: "test/package/consumer.test.ts" },
  { file: "docs/library.md", section: "The streams", starts: "import {", by: "here" },
  { file: "docs/library.md", section: "The streams", starts: "// Node 26", by: "here (on the project's Node 26)" },
  {
    file: "docs/cli.md",
    section: "",
    starts: "rm -rf",
    by:
      "not run: it removes the user's own npx cache entry; test/cli/bin.test.ts runs npx with a private cache, " +
      "before and after a build",
  },
  {
    file: "docs/cli.md",
    section: "Where the worker is",
    starts: "npx drainpipe upload primes.txt --name primes",
    by: "not run: it needs a deployed worker; the same options against a local one are in test/cli/main.test.ts",
  },
  { file: API, section: "Local development server: `npm start`", starts: "drainpipe: created", by: "here" },
  { file: API, section: "Reading: byte ranges and validators", starts: "# ranges", by: "here" },
  { file: API, section: "Reading by line and by value", starts: "# lines and search", by: "here" },
  { file: API, section: "Conditional writes", starts: "# conditional writes", by: "here" },
  {
    file: API,
    section: SESSIONS,
    starts: "#!/usr/bin/env bash",
    by: "here",
  },
  { file: API, section: TUS, starts: "import { createReadStream", by: "here" },
  {
    file: API,
    section: TUS,
    starts: "import Uppy",
    by:
      "not run as written: a browser module for a deployed worker; the page (src/page/uploader.ts) sets Uppy up with " +
      "these options, and test/page/ drives it in Chromium",
  },
  { file: API, section: TUS, starts: "# tus with curl", by: "here" },
  {
    file: "docs/configuration.md",
    section: "Deploying",
    starts: "npx wrangler r2 bucket create",
    by: "not run: it needs a Cloudflare account",
  },
];

function block(file: string, section: string, starts: string): DocBlock {
  const found = blocks.find(
    (candidate) => candidate.file === file && candidate.section === section && candidate.code.startsWith(starts),
  );
  if (!found) throw new Error(`Cannot find the block of ${file}, "${section}", starting "${starts}"`);
  return found;
}

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-docs-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

test("every block of the README and docs/*.md is run by a test or says why not", () => {
  expect(FILES).toContain("docs/http-api.md");
  for (const { file, section, code, line } of blocks) {
    const covered = COVERAGE.some(
      (entry) => entry.file === file && entry.section === section && code.startsWith(entry.starts),
    );
    expect(covered, `${file}:${line} (${section}) is neither run nor explained`).toBe(true);
  }
});

test("every entry of the coverage table names a block that exists", () => {
  for (const { file, section, starts } of COVERAGE) expect(() => block(file, section, starts)).not.toThrow();
});

test("the streams extensions block prints what its comments say", async () => {
  const { code } = block("docs/library.md", "The streams", "import {");
  // As a module typed in at the project root, where its "./src/streams/index.ts" resolves.
  const { stdout } = await promisify(execFile)(
    join(ROOT, "node_modules/.bin/node"),
    ["--input-type=module-typescript", "-e", code],
    { cwd: ROOT },
  );
  expect(stdout.trim()).toBe(expectedOutput(code));
  expect(expectedOutput(code)).not.toBe("");
});

test("the iterable-streams block prints what its comments say on Node 26", { timeout: 600_000 }, async () => {
  const { code } = block("docs/library.md", "The streams", "// Node 26");
  const { stdout } = await promisify(execFile)(
    ensureNode26(),
    [STREAM_ITER_FLAG, "--no-warnings", "--input-type=module-typescript", "-e", code],
    { cwd: ROOT },
  );
  expect(stdout.trim()).toBe(expectedOutput(code));
  expect(expectedOutput(code)).not.toBe("");
});

test("the npm start block is what npm start prints on a first run, but for the token", async () => {
  const { code } = block(API, "Local development server: `npm start`", "drainpipe: created");
  const path = join(directory, "first-run.dev.vars");
  const lines = await prepareDevToken(path, "http://127.0.0.1:8787");
  const token = /^API_TOKEN=(.+)$/m.exec(await readFile(path, "utf8"))![1]!;
  expect(lines.join("\n").replaceAll(token, "3exf…")).toBe(code);
});

test("npm run demo's script stores the primes and verifies them", { timeout: 120_000 }, async () => {
  const scratch = join(directory, "demo");
  await mkdir(scratch);
  await writeFile(join(scratch, "package.json"), "{}\n");
  const run = await runShell(`node ${join(ROOT, "src/cli/demo.ts")}`, {
    cwd: scratch,
    env: { DEMO_PRIMES: "2e4" },
  });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("generated the first 20,000 primes");
  expect(run.stdout).toContain(`(R2 persisted in ${join(scratch, ".wrangler", "state")})`);
  expect(run.stdout).toMatch(/ and stored "primes-20000" are identical: /);
});

test("the command line block runs as written", { timeout: 300_000 }, async () => {
  const scratch = join(directory, "cli");
  const bin = join(directory, "bin");
  await mkdir(scratch);
  await mkdir(bin);
  // npx runs the project's own bin (dist/cli/main.js once built); here that bin is the CLI's sources.
  await writeFile(join(bin, "npx"), '#!/bin/sh\nexec "$@"\n');
  await writeFile(join(bin, "drainpipe"), `#!/bin/sh\nexec ${CLI_COMMAND} "$@"\n`);
  await Promise.all([chmod(join(bin, "npx"), 0o755), chmod(join(bin, "drainpipe"), 0o755)]);
  const { code } = block("README.md", "Command line", "npx drainpipe primes");
  const run = await runShell(`set -e\n${code}`, {
    cwd: scratch,
    env: { PATH: `${bin}${delimiter}${shellEnv(undefined).PATH}` },
  });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("wrote the first 1,000,000 primes (8.25 MB) to primes.txt");
  expect(run.stdout).toContain('stored "primes.txt": 1,000,000 numbers, 8.25 MB');
  expect(run.stdout).toMatch(/^primes\.txt +1,000,000 +8\.25 MB +1 /m);
  expect(run.stdout).toContain('"copy.txt" and stored "primes.txt" are identical');
  expect(run.stdout).toContain("7368791\n7368811\n7368817\n");
  expect(run.stdout).toContain('\n{ "index": 78498, "value": 1000003, "found": false }\n');
  expect(run.stdout).toContain('removed "primes.txt"');
  expect(run.stdout).toMatch(/^swept \d+ file names?: /m);
});

describe("the curl blocks, against a local worker", () => {
  let worker: EmbeddedWorker;
  let scratch: string;

  beforeAll(async () => {
    scratch = join(directory, "curl");
    await mkdir(scratch);
    worker = await startEmbeddedWorker({ stateDir: join(directory, "curl-state") });
    const primes = await runShell(`${CLI_COMMAND} primes 2e4 -o primes.txt`, { cwd: scratch });
    expect(primes.code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
  });

  /** The block with `npm start`'s address replaced by the test worker's, and `.dev.vars` holding `token`. */
  async function prepared(file: string, section: string, starts: string, token: string): Promise<string> {
    await writeFile(join(scratch, ".dev.vars"), `API_TOKEN=${token}\n`);
    const { code } = block(file, section, starts);
    expect(code).toContain("http://127.0.0.1:8787");
    return code.replaceAll("http://127.0.0.1:8787", worker.url);
  }

  test("a single POST stores the file", { timeout: 60_000 }, async () => {
    const run = await runShell(await prepared("README.md", "HTTP", "TOKEN=$(sed", worker.token), { cwd: scratch });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: "primes", totals: { numbers: 20_000 } });
  });

  test("the range and validator lines answer what their comments say", { timeout: 60_000 }, async () => {
    expect(
      (await runShell(await prepared("README.md", "HTTP", "TOKEN=$(sed", worker.token), { cwd: scratch })).code,
    ).toBe(0);
    const run = await runShell(await prepared(API, "Reading: byte ranges and validators", "# ranges", worker.token), {
      cwd: scratch,
    });
    expect(run.code).toBe(0);
    const text = await readFile(join(scratch, "primes.txt"), "utf8");
    const stored = await fetch(`${worker.url}/files/primes`, { headers: { Authorization: `Bearer ${worker.token}` } });
    const firstPart = ((await stored.json()) as { parts: { bytes: number }[] }).parts[0]!.bytes;
    expect(run.stdout).toBe(
      `${text.slice(0, 100)}${text.slice(firstPart - 20, firstPart)}416\n304\n${text.slice(100, 110)}`,
    );
  });

  test("the lines and search lines answer what their comments say", { timeout: 60_000 }, async () => {
    const run = await runShell(
      await prepared(API, "Reading by line and by value", "# lines and search", worker.token),
      { cwd: scratch },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "2\n3\n5\n7\n11\n224737\n" +
        '{"index":25,"value":101,"found":false}\n{"index":999,"value":7919,"found":true}\n416\n400\n',
    );
  });

  test("the conditional write lines answer what their comments say", { timeout: 60_000 }, async () => {
    const run = await runShell(await prepared(API, "Conditional writes", "# conditional writes", worker.token), {
      cwd: scratch,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("201\n412\n201\n412\n");
  });

  test("the upload session script stores the file and leaves nothing behind", { timeout: 60_000 }, async () => {
    await writeFile(
      join(scratch, "upload-session.sh"),
      await prepared(API, SESSIONS, "#!/usr/bin/env bash", worker.token),
    );
    const before = await readdir(scratch);
    const run = await runShell("bash upload-session.sh primes.txt by-session", { cwd: scratch });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      name: "by-session",
      source: { kind: "segments", segments: 1 },
      totals: { numbers: 20_000 },
    });
    expect(await readdir(scratch)).toEqual(before);
  });

  test("the tus curl lines answer what the text after them says", { timeout: 60_000 }, async () => {
    const run = await runShell(await prepared(API, TUS, "# tus with curl", worker.token), { cwd: scratch });
    expect(run.code, run.stderr).toBe(0);
    const [first, second, ...rest] = run.stdout.trim().split("\n");
    expect([first, second]).toEqual(["204 4", "204 9"]);
    expect(rest.filter((line) => /^upload-(offset|length): 9\s*$/i.test(line))).toHaveLength(2);
    expect(rest.some((line) => /^upload-expires: /i.test(line))).toBe(true);
    expect(rest.slice(-3)).toEqual(["10", "20", "30"]);
  });

  test("the tus-js-client block stores the file byte for byte", { timeout: 120_000 }, async () => {
    const { code } = block(API, TUS, "import { createReadStream");
    // A module file inside the project, so that its bare import of tus-js-client resolves to the project's.
    const module = join(ROOT, ".cache", "doc-blocks", "tus-client.mjs");
    await mkdir(join(ROOT, ".cache", "doc-blocks"), { recursive: true });
    await writeFile(module, code);
    const { stdout } = await promisify(execFile)(join(ROOT, "node_modules/.bin/node"), [module], {
      cwd: scratch,
      env: { ...process.env, DRAINPIPE_URL: worker.url, DRAINPIPE_TOKEN: worker.token },
    });
    expect(stdout).toMatch(/^stored as http:\/\/127\.0\.0\.1:\d+\/tus\/\S+~primes-by-tus\n$/);
    const stored = await fetch(`${worker.url}/files/primes-by-tus/content`, {
      headers: { Authorization: `Bearer ${worker.token}` },
    });
    expect(await stored.text()).toBe(await readFile(join(scratch, "primes.txt"), "utf8"));
  });

  test("the upload session script stops at a refusal, showing the worker's error once", async () => {
    await writeFile(
      join(scratch, "upload-session.sh"),
      await prepared(API, SESSIONS, "#!/usr/bin/env bash", "not-the-token"),
    );
    const before = await readdir(scratch);
    const run = await runShell("bash upload-session.sh primes.txt refused", { cwd: scratch });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr.match(/"error":"unauthorized"/g)).toHaveLength(1);
    expect(await readdir(scratch)).toEqual(before);
  });
});
