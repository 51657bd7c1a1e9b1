import { access, readFile, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { UploadResult } from "../../src/cli/upload/upload-result.ts";
import type { FileSummary } from "../../src/files/file-catalog.ts";
import { CLI_COMMAND, type CliRun, runCli, runShell } from "./cli-runner.ts";
import { useRemoteWorker } from "./remote-worker.ts";

// One worker for the whole file, started here in local workerd; the CLI talks to it with --url and --token,
// as it would to a deployed worker. (test/cli/embedded-worker.test.ts covers the CLI's own embedded worker.)
const fixture = useRemoteWorker("drainpipe-cli-");

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: fixture.directory });
}

function remote(...args: string[]): Promise<CliRun> {
  return cli(...args, "--url", fixture.worker.url, "--token", fixture.worker.token);
}

/** The first `count` primes as text, computed independently of the code under test. */
function primesText(count: number): string {
  const primes: number[] = [];
  for (let candidate = 2; primes.length < count; candidate++) {
    if (primes.every((p) => p * p > candidate || candidate % p !== 0)) primes.push(candidate);
  }
  return primes.map((p) => `${p}\n`).join("");
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("Cannot find an unused port: no address");
  return address.port;
}

describe("primes", () => {
  test("writes the first N primes to stdout", async () => {
    const run = await cli("primes", "10");
    expect(run).toMatchObject({ code: 0, stdout: "2\n3\n5\n7\n11\n13\n17\n19\n23\n29\n" });
  });

  test("writes them to a file with -o and says so", async () => {
    const file = join(fixture.directory, "primes-5000.txt");
    const run = await cli("primes", "5_000", "-o", file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("wrote the first 5,000 primes");
    expect(await readFile(file, "utf8")).toBe(primesText(5000));
  });
});

describe("upload, ls, get, verify, rm", () => {
  test("round trip through the worker", { timeout: 60_000 }, async () => {
    const file = join(fixture.directory, "primes 20k.txt");
    const text = primesText(20_000);
    await writeFile(file, text);

    const upload = await remote("upload", file, "--max-part-bytes", "16KiB", "--json");
    expect(upload.stderr).toBe(
      `drainpipe: storing "primes 20k.txt" as "primes-20k.txt" (names take only A–Z a–z 0–9 . _ -; ` +
        "choose one with --name)\n",
    );
    expect(upload.code).toBe(0);
    const uploaded = JSON.parse(upload.stdout) as UploadResult;
    const { manifest, bytes } = uploaded;
    // Seconds to the millisecond, rates in whole units: no 3.1216101770000004.
    expect(Math.round(uploaded.seconds * 1000) / 1000).toBe(uploaded.seconds);
    expect(Number.isInteger(uploaded.bytesPerSecond) && Number.isInteger(uploaded.numbersPerSecond)).toBe(true);
    expect(manifest.name).toBe("primes-20k.txt");
    expect(manifest.totals).toEqual({ parts: manifest.parts.length, bytes: text.length, numbers: 20_000 });
    expect(manifest.parts.length).toBeGreaterThan(5);
    expect(manifest.source).toEqual({ kind: "upload", bytes: text.length, lines: 20_000, canonical: true });
    expect(bytes).toBe(text.length);

    const human = await remote("upload", file, "--name", "second");
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^stored "second": 20,000 numbers, .* in 1 part/);
    expect(human.stdout).toMatch(/^sent [0-9.]+ [kMG]?B in [0-9.hms ]+: [0-9.]+ [kMG]?B\/s, [0-9,]+ numbers\/s$/m);

    const ls = await remote("ls", "--json");
    expect(ls.code).toBe(0);
    const files = (JSON.parse(ls.stdout) as { files: FileSummary[] }).files;
    expect(files.map((f) => f.name).sort()).toEqual(["primes-20k.txt", "second"]);
    expect(files.find((f) => f.name === "second")?.totals).toEqual({ parts: 1, bytes: text.length, numbers: 20_000 });
    const table = await remote("ls");
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+NUMBERS\s+SIZE\s+PARTS\s+CREATED$/);
    expect(table.stdout).toMatch(/^second\s+20,000\s/m);

    const toStdout = await remote("get", "primes-20k.txt");
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(text);
    const copy = join(fixture.directory, "copy.txt");
    const toFile = await remote("get", "primes-20k.txt", "-o", copy, "--json");
    expect(toFile.code).toBe(0);
    expect(JSON.parse(toFile.stdout)).toMatchObject({ name: "primes-20k.txt", output: copy, bytes: text.length });
    expect(await readFile(copy, "utf8")).toBe(text);

    const verify = await remote("verify", "primes-20k.txt", file);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain(
      `and stored "primes-20k.txt" are identical: ${text.length.toLocaleString("en")} bytes`,
    );

    const rm = await remote("rm", "second", "--json");
    expect(rm.code).toBe(0);
    expect(JSON.parse(rm.stdout)).toEqual({ name: "second", removed: true, remnants: 0 });
    const after = JSON.parse((await remote("ls", "--json")).stdout) as { files: FileSummary[] };
    expect(after.files.map((f) => f.name)).toEqual(["primes-20k.txt"]);

    const again = await remote("rm", "second");
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `drainpipe: Cannot remove "second": the worker answered 404 not-found: No file named "second"\n`,
    );
  });
});

describe("upload from standard input and of several files", () => {
  test("upload - --name x streams what is piped in, chunked, and it reads back byte for byte", async () => {
    const text = primesText(5000);
    const file = join(fixture.directory, "piped-source.txt");
    await writeFile(file, text);
    const auth = `--url ${fixture.worker.url} --token ${fixture.worker.token}`;
    const run = await runShell(`cat piped-source.txt | ${CLI_COMMAND} upload - --name piped ${auth} --json`, {
      cwd: fixture.directory,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ file: "-", bytes: text.length, manifest: { name: "piped" } });
    expect((await remote("get", "piped")).stdout).toBe(text);

    const devStdin = await runShell(`${CLI_COMMAND} upload /dev/stdin --name dev-stdin ${auth} < piped-source.txt`, {
      cwd: fixture.directory,
    });
    expect(devStdin.code).toBe(0);
    expect(devStdin.stdout).toMatch(/^stored "dev-stdin": 5,000 numbers/);
  });

  test("while it holds standard input to learn its size, a bar says how much it holds", async () => {
    const text = primesText(5000);
    await writeFile(join(fixture.directory, "held-source.txt"), text);
    const auth = `--url ${fixture.worker.url} --token ${fixture.worker.token}`;
    const run = await runShell(`cat held-source.txt | ${CLI_COMMAND} upload - --name held ${auth} --progress`, {
      cwd: fixture.directory,
    });
    expect(run.code).toBe(0);
    const held = run.stderr.lastIndexOf("holding standard input until it ends or passes 95 MB: 28.6 kB | ");
    expect(held).toBeGreaterThanOrEqual(0);
    expect(run.stderr.indexOf("upload [", held)).toBeGreaterThan(held);
  });

  test("standard input needs --name", async () => {
    const unnamed = await cli("upload", "-");
    expect(unnamed).toMatchObject({ code: 2, stdout: "" });
    expect(unnamed.stderr).toBe('drainpipe: Cannot upload standard input ("-") without a name: pass one with --name\n');
  });

  test("several files go in one run, each under its own name", async () => {
    const names = ["one.txt", "two.txt", "three.txt"];
    for (const [index, name] of names.entries()) {
      await writeFile(join(fixture.directory, name), primesText(100 * (index + 1)));
    }
    const run = await remote("upload", ...names.map((name) => join(fixture.directory, name)), "--json");
    expect(run.code).toBe(0);
    const { uploads } = JSON.parse(run.stdout) as { uploads: UploadResult[] };
    expect(uploads.map((upload) => [upload.manifest.name, upload.manifest.totals.numbers])).toEqual([
      ["one.txt", 100],
      ["two.txt", 200],
      ["three.txt", 300],
    ]);
    const text = await remote("upload", join(fixture.directory, "one.txt"), join(fixture.directory, "two.txt"));
    expect(text.stdout.match(/^stored "(one|two)\.txt"/gm)).toEqual(['stored "one.txt"', 'stored "two.txt"']);

    const named = await cli("upload", "one.txt", "two.txt", "--name", "both");
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("Cannot use --name or --resume with several files");
    const clash = await cli("upload", "one.txt", "sub/one.txt");
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(`Cannot store two of these files as "one.txt"`);
  });
});

describe("verify", () => {
  const text = primesText(3000);
  let file: string;

  beforeAll(async () => {
    file = join(fixture.directory, "verify-source.txt");
    await writeFile(file, text);
    const upload = await remote("upload", file, "--name", "verify-me", "--max-part-bytes", "1KiB");
    expect(upload.code).toBe(0);
  }, 30_000);

  test("exits 1 at the first differing byte, naming its offset, line and column", async () => {
    const changedLine = 1234;
    const lines = text.split("\n");
    const original = lines[changedLine - 1]!;
    lines[changedLine - 1] = `${original.slice(0, -1)}${original.endsWith("1") ? "3" : "1"}`;
    const changed = join(fixture.directory, "changed.txt");
    await writeFile(changed, lines.join("\n"));
    const offset =
      text
        .split("\n")
        .slice(0, changedLine - 1)
        .join("\n").length +
      1 +
      original.length -
      1;

    const run = await remote("verify", "verify-me", changed);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `at byte offset ${offset.toLocaleString("en")} (line 1,234, column ${original.length})`,
    );

    const local = lines[changedLine - 1]!.at(-1)!;
    const stored = original.at(-1)!;
    expect(run.stdout).toContain(`: the local file has "${local}", the stored content has "${stored}"\n`);

    const json = await remote("verify", "verify-me", changed, "--json");
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout) as { seconds: number };
    expect(result).toMatchObject({
      identical: false,
      difference: { offset, line: changedLine, column: original.length, local, stored },
    });
    expect(Math.round(result.seconds * 1000) / 1000).toBe(result.seconds);
  });

  test("exits 1 when the local file is shorter, and when it is longer", async () => {
    const shorter = join(fixture.directory, "shorter.txt");
    await writeFile(shorter, text.slice(0, 1000));
    const short = await remote("verify", "verify-me", shorter, "--json");
    expect(short.code).toBe(1);
    const prefix = text.slice(0, 1000);
    const result = JSON.parse(short.stdout) as {
      identical: boolean;
      localBytes: number;
      storedBytes: number;
      difference: Record<string, number>;
    };
    expect(result).toMatchObject({ identical: false, localBytes: 1000, storedBytes: text.length });
    expect(result.difference).toEqual({
      offset: 1000,
      line: prefix.split("\n").length,
      column: 1000 - prefix.lastIndexOf("\n"),
      local: null,
      stored: text[1000],
    });

    const longer = join(fixture.directory, "longer.txt");
    await writeFile(longer, `${text}17\n`);
    const long = await remote("verify", "verify-me", longer);
    expect(long.code).toBe(1);
    expect(long.stdout).toContain(
      `at byte offset ${text.length.toLocaleString("en")} (line 3,001, column 1): the stored content ends there`,
    );
  });

  test("fails with a clear message for a stored file that does not exist", async () => {
    const run = await remote("verify", "no-such-file", file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Cannot read the manifest of "no-such-file": the worker answered 404 not-found`);
  });
});

describe("errors", () => {
  test("an upload with a bad line exits 1 with the worker's error, line and column, and stores nothing", async () => {
    const file = join(fixture.directory, "bad.txt");
    await writeFile(file, "2\n3\n5\n7x\n11\n");
    const run = await remote("upload", file);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `drainpipe: Cannot upload "${file}": line 4, column 2 (byte offset 7): ` +
        "unexpected byte 0x78 ('x'); expected a digit or a line break\n",
    );

    const json = await remote("ls", "--json");
    expect((JSON.parse(json.stdout) as { files: FileSummary[] }).files.map((f) => f.name)).not.toContain("bad.txt");
  });

  test("with --json, a failure is { error: code, detail: message, … } on stdout as from the worker, same exit code", {
    timeout: 60_000,
  }, async () => {
    const bad = join(fixture.directory, "bad-json.txt");
    await writeFile(bad, "2\n3\n5\n7x\n11\n");
    const upload = await remote("upload", bad, "--json");
    expect(upload.code).toBe(1);
    expect(JSON.parse(upload.stdout)).toEqual({
      error: "invalid-number",
      detail:
        `Cannot upload "${bad}": line 4, column 2 (byte offset 7): ` +
        "unexpected byte 0x78 ('x'); expected a digit or a line break",
      status: 400,
      line: 4,
      column: 2,
      offset: 7,
      reason: "unexpected-byte",
      path: bad,
    });

    const rm = await remote("rm", "nosuch", "--json");
    expect(rm.code).toBe(1);
    expect(JSON.parse(rm.stdout)).toEqual({
      error: "not-found",
      detail: 'Cannot remove "nosuch": the worker answered 404 not-found: No file named "nosuch"',
      status: 404,
    });

    const verify = await remote("verify", "nosuch", bad, "--json");
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout)).toMatchObject({ error: "not-found", status: 404 });

    const missing = await remote("upload", "missing.txt", "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: "no-such-file",
      detail: 'Cannot read "missing.txt": no such file',
      path: "missing.txt",
    });

    const usage = await cli("upload", bad, "--max-part-bytes", "12", "--json");
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({
      error: "usage",
      detail: expect.stringContaining(`Cannot use --max-part-bytes "12"`),
    });
  });

  test("a missing file exits 1 naming it", async () => {
    const run = await remote("upload", "missing.txt");
    expect(run).toMatchObject({ code: 1, stdout: "", stderr: `drainpipe: Cannot read "missing.txt": no such file\n` });
  });

  test("requests without the token are refused with the worker's 401 and a hint", async () => {
    const run = await cli("ls", "--url", fixture.worker.url);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the worker answered 401 unauthorized");
    expect(run.stderr).toContain("pass --token or set DRAINPIPE_TOKEN");

    const wrong = await cli("ls", "--url", fixture.worker.url, "--token", "not-the-token");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("401 unauthorized");
  });

  test("DRAINPIPE_URL and DRAINPIPE_TOKEN stand in for --url and --token", async () => {
    const run = await runCli(["ls", "--json"], {
      cwd: fixture.directory,
      env: { DRAINPIPE_URL: fixture.worker.url, DRAINPIPE_TOKEN: fixture.worker.token },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty("files");
  });

  test("an unreachable worker exits 1 saying so", async () => {
    const port = await unusedPort();
    const run = await cli("ls", "--url", `http://127.0.0.1:${port}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `drainpipe: Cannot list files: the worker at http://127.0.0.1:${port}/ is unreachable ` +
        `(connect ECONNREFUSED 127.0.0.1:${port})\n`,
    );
  });

  test.each([
    [["upload", "x.txt", "--max-part-bytes", "12"], `Cannot use --max-part-bytes "12": expected a size such as`],
    [["upload", "x.txt", "--segment-bytes", "10 parsecs"], `Cannot use --segment-bytes "10 parsecs"`],
    [["upload", "x.txt", "--name", "../etc"], `Cannot use file name "../etc"`],
    [["upload", "x.txt", "--url", "ftp://example.com"], "the scheme must be http or https"],
    [["primes", "many"], `Cannot use count "many": expected a whole number such as 1000, 1_000_000 or 1e6`],
    [["primes"], "missing required argument 'count'"],
    [["verify", "only-a-name"], "missing required argument 'file'"],
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["ls", "--colour"], "unknown option '--colour'"],
  ])("bad arguments %j exit 2", async (args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });
});

describe("against a stand-in HTTP server", () => {
  let server: Server;
  let url: string;
  const uploads: { headers: Record<string, string | string[] | undefined>; bytes: number }[] = [];

  beforeAll(async () => {
    server = createHttpServer((request, response) => {
      if (request.method === "POST") {
        let bytes = 0;
        request.on("data", (chunk: Buffer) => (bytes += chunk.length));
        request.on("end", () => {
          uploads.push({ headers: request.headers, bytes });
          response.writeHead(400, { "Content-Type": "application/json" });
          response.end(JSON.stringify({ error: "invalid-number", detail: "Cannot parse: test", line: 1, column: 1 }));
        });
        return;
      }
      if (request.url === "/limits") {
        // As a worker from before GET /limits answers it: the CLI then keeps its default threshold.
        response.writeHead(404, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ error: "not-found", detail: "No route for GET /limits" }));
        return;
      }
      if (request.url === "/files/cut/content") {
        response.writeHead(200, { "Content-Length": "100000" });
        response.write("2\n3\n5\n", () => response.destroy());
        return;
      }
      response.writeHead(502, { "Content-Type": "text/html" }).end("<html>Bad Gateway</html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("Cannot start the test server: no address");
    url = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test("upload sends the file with Content-Length and the token, without Expect: 100-continue", async () => {
    const file = join(fixture.directory, "wire.txt");
    const text = primesText(2000);
    await writeFile(file, text);
    const run = await cli("upload", file, "--url", url, "--token", "s3cret");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`drainpipe: Cannot upload "${file}": line 1, column 1: Cannot parse: test\n`);
    expect(uploads).toHaveLength(1);
    const [upload] = uploads;
    expect(upload?.bytes).toBe(text.length);
    expect(upload?.headers).toMatchObject({ "content-length": String(text.length), authorization: "Bearer s3cret" });
    expect(upload?.headers).not.toHaveProperty("expect");
    expect(upload?.headers).not.toHaveProperty("transfer-encoding");
  });

  test("upload - sends standard input that ends within the limit as one POST with its Content-Length", async () => {
    const before = uploads.length;
    const run = await runShell(`printf '2\\n3\\n5\\n' | ${CLI_COMMAND} upload - --name wire-piped --url ${url}`, {
      cwd: fixture.directory,
    });
    expect(run.code).toBe(1);
    expect(uploads).toHaveLength(before + 1);
    expect(uploads.at(-1)?.bytes).toBe(6);
    expect(uploads.at(-1)?.headers).toMatchObject({ "content-length": "6" });
    expect(uploads.at(-1)?.headers).not.toHaveProperty("transfer-encoding");
  });

  test("a connection cut in the middle of get exits 1 and removes the partial output file", async () => {
    const output = join(fixture.directory, "cut.txt");
    const run = await cli("get", "cut", "-o", output, "--url", url);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^drainpipe: Cannot read the content of "cut": the worker at http:\/\/127\.0\.0\.1:\d+\/ failed to answer \(/,
    );
    await expect(access(output)).rejects.toThrow(/ENOENT/);
  });

  test("--url https:// on a plain HTTP port says the server speaks plain HTTP", async () => {
    const secure = url.replace(/^http:/, "https:");
    const run = await cli("ls", "--url", secure);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `drainpipe: Cannot list files: the worker at ${secure}/ speaks plain HTTP, not HTTPS (try --url ${url}/)\n`,
    );
  });

  test("an error page that is not the worker's JSON is described by its status and text", async () => {
    const run = await cli("ls", "--url", url);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "drainpipe: Cannot list files: the worker answered 502 Bad Gateway: <html>Bad Gateway</html>\n",
    );
  });
});

describe("--help", () => {
  test.each(["primes", "upload", "ls", "get", "lines", "search", "verify", "rm", "sweep", "dev"])(
    "drainpipe %s --help",
    async (command) => {
      const run = await cli(command, "--help");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: drainpipe ${command} `));
    },
  );

  test("drainpipe --help lists every command", async () => {
    const run = await cli("--help");
    expect(run.code).toBe(0);
    for (const command of ["primes", "upload", "ls", "get", "lines", "search", "verify", "rm", "sweep", "dev"])
      expect(run.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
  });
});
