import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Manifest } from "../../../src/files/manifest.ts";
import { CLI_COMMAND, runCli, runShell } from "../cli-runner.ts";
import { useRemoteWorker } from "../remote-worker.ts";

// Upload sessions from the CLI against a worker in local workerd, reached with --url and --token.
const fixture = useRemoteWorker("drainpipe-segments-");
const remote = (...args: string[]) => fixture.remote(args);

/** Lines of `count` numbers, a different width each, so segments cut at varying places. */
function numbersText(count: number, seed: number): string {
  return Array.from({ length: count }, (_, i) => `${(i * 7919 + seed) % 1_000_003}\n`).join("");
}

describe("upload sessions from the CLI", () => {
  test("a plan of more segments than a session holds is refused before anything is sent", async () => {
    const text = numbersText(100_000, 5);
    const file = join(fixture.directory, "too-many.txt");
    await writeFile(file, text);
    const smallest = Math.ceil(text.length / 10_000);
    const run = await remote("upload", file, "--segment-bytes", "10");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `drainpipe: Cannot upload "${file}" in segments of 10 bytes: that makes more than 10,000 segments, the most ` +
        `a session holds; use --segment-bytes ${smallest.toLocaleString("en")} or more (a size over the worker's ` +
        "limit is cut to it)\n",
    );
    const response = await fetch(`${fixture.worker.url}/files/too-many.txt/uploads`, {
      headers: { Authorization: `Bearer ${fixture.worker.token}` },
    });
    expect(await response.json()).toMatchObject({ sessions: [], uploads: [] });
  });

  test("a file forced into 7 segments with --parallel 3 round-trips byte for byte", { timeout: 120_000 }, async () => {
    const text = numbersText(70_000, 1);
    const file = join(fixture.directory, "seven.txt");
    await writeFile(file, text);
    const segmentBytes = Math.ceil(text.length / 7);
    const upload = await remote("upload", file, "--segment-bytes", String(segmentBytes), "--parallel", "3", "--json");
    expect(upload.code).toBe(0);
    const result = JSON.parse(upload.stdout) as { manifest: Manifest; segments: number; sentSegments: number };
    expect(result).toMatchObject({ segments: 7, sentSegments: 7 });
    expect(result.manifest.source).toMatchObject({ kind: "segments", segments: 7, bytes: text.length });
    const copy = join(fixture.directory, "seven-copy.txt");
    expect((await remote("get", "seven.txt", "-o", copy)).code).toBe(0);
    expect(await readFile(copy, "utf8")).toBe(text);
    const text2 = await remote("upload", file, "--name", "seven-text", "--segment-bytes", String(segmentBytes));
    expect(text2.stdout).toMatch(/ as 7 segments in /);
  });

  test("a bar says how far hashing the segments went, before the upload's bar starts", {
    timeout: 60_000,
  }, async () => {
    const text = numbersText(20_000, 3);
    const file = join(fixture.directory, "hashed.txt");
    await writeFile(file, text);
    const size = "138 kB"; // 137,767 bytes
    const run = await remote("upload", file, "--segment-bytes", String(Math.ceil(text.length / 3)), "--progress");
    expect(run.code).toBe(0);
    const hashed = run.stderr.lastIndexOf(`hashing [==============================] 100% | ${size} / ${size} | `);
    expect(hashed).toBeGreaterThanOrEqual(0);
    expect(run.stderr.indexOf("upload [", hashed)).toBeGreaterThan(hashed);
  });

  test("a bad line in segment 5 is reported as the file's own line, column and byte offset", {
    timeout: 60_000,
  }, async () => {
    const lines = numbersText(60_000, 2).split("\n");
    const badLine = 52_345;
    lines[badLine - 1] = "12x4";
    const text = lines.join("\n");
    const file = join(fixture.directory, "bad.txt");
    await writeFile(file, text);
    const offset = text.indexOf("12x4");
    const upload = await remote("upload", file, "--segment-bytes", String(Math.ceil(text.length / 6)));
    expect(upload.code).toBe(1);
    expect(upload.stderr).toContain(
      `drainpipe: Cannot upload "${file}": line ${badLine.toLocaleString("en")}, column 3 ` +
        `(byte offset ${(offset + 2).toLocaleString("en")}, in segment 5): unexpected byte 0x78 ('x'); ` +
        "expected a digit or a line break\n",
    );
    expect(upload.stderr).toContain("the worker removed the upload session");
    expect((await remote("get", "bad.txt")).code).toBe(1);
  });

  test("a session kept after a failure resumes with the command it prints, sending only what the worker lacks", {
    timeout: 120_000,
  }, async () => {
    const text = numbersText(50_000, 3);
    const file = join(fixture.directory, "resume me.txt");
    await writeFile(file, text);
    const segmentBytes = String(Math.ceil(text.length / 5));
    const lines = text.split("\n");
    lines[40_000] = "oops";
    await writeFile(file, lines.join("\n"));
    const first = await remote(
      "upload",
      file,
      "--name",
      "kept",
      "--segment-bytes",
      segmentBytes,
      "--keep-session",
      "--parallel",
      "1",
    );
    expect(first.code).toBe(1);
    const printed = /the upload session is kept; resume it with:\n {2}(.*)\n$/.exec(first.stderr)?.[1];
    const main = join(import.meta.dirname, "../../../src/cli/main.ts");
    const [before, after] = printed!.split(/--resume \S+/);
    expect(before).toBe(`node ${main} upload '${file}' --name kept `);
    expect(after).toBe(` --segment-bytes ${segmentBytes} --url ${fixture.worker.url}/ --token <token>`);
    await writeFile(file, text);
    const resumed = await runShell(`${printed!.replace("<token>", fixture.worker.token)} --json`, {
      cwd: fixture.directory,
    });
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as { segments: number; sentSegments: number };
    expect(result.segments).toBe(5);
    expect(result.sentSegments).toBeLessThan(5);
    expect((await remote("verify", "kept", file)).code).toBe(0);
  });
});

describe("upload sessions from standard input", () => {
  /** Runs `cat file | drainpipe upload - ...args` against the fixture's worker. */
  const piped = (file: string, ...args: string[]) =>
    runShell(
      `cat '${file}' | ${CLI_COMMAND} upload - ${args.join(" ")} --url ${fixture.worker.url} ` +
        `--token ${fixture.worker.token}`,
      { cwd: fixture.directory },
    );

  test("--segment-bytes cuts it where the file would be cut, and it round-trips byte for byte", {
    timeout: 120_000,
  }, async () => {
    const text = numbersText(70_000, 6);
    const file = join(fixture.directory, "piped-seven.txt");
    await writeFile(file, text);
    const segmentBytes = String(Math.ceil(text.length / 7));
    const upload = await piped(file, "--name", "piped-seven", "--segment-bytes", segmentBytes, "--parallel", "3");
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toMatch(/^drainpipe: upload session \S+ \(segments of about /);
    expect(upload.stdout).toMatch(/ as 7 segments in /);
    expect((await remote("verify", "piped-seven", file)).code).toBe(0);
    // The same bytes as a file, in segments of the same size: the same segments, digest for digest.
    const fromFile = await remote("upload", file, "--name", "file-seven", "--segment-bytes", segmentBytes, "--json");
    expect(fromFile.code).toBe(0);
    const sessions = await Promise.all(
      ["piped-seven", "file-seven"].map(async (name) => {
        const response = await fetch(`${fixture.worker.url}/files/${name}`, {
          headers: { Authorization: `Bearer ${fixture.worker.token}` },
        });
        return ((await response.json()) as Manifest).parts.map(({ first, last, numbers }) => [first, last, numbers]);
      }),
    );
    expect(sessions[0]).toEqual(sessions[1]);
  });

  test("a bad line is reported as the input's own line, column and byte offset; --resume sends only the rest", {
    timeout: 120_000,
  }, async () => {
    const text = numbersText(60_000, 7);
    const lines = text.split("\n");
    const badLine = 52_345;
    lines[badLine - 1] = "12x4";
    const bad = lines.join("\n");
    const file = join(fixture.directory, "piped-bad.txt");
    await writeFile(file, bad);
    const offset = bad.indexOf("12x4");
    const segmentBytes = String(Math.ceil(text.length / 6));
    const args = ["--name", "piped-bad", "--segment-bytes", segmentBytes, "--parallel", "2", "--keep-session"];
    const upload = await piped(file, ...args);
    expect(upload.code).toBe(1);
    expect(upload.stderr).toContain(
      `drainpipe: Cannot upload "-": line ${badLine.toLocaleString("en")}, column 3 ` +
        `(byte offset ${(offset + 2).toLocaleString("en")}, in segment 5): unexpected byte 0x78 ('x'); ` +
        "expected a digit or a line break\n",
    );
    const sessionId = /--resume (\S+)/.exec(upload.stderr)?.[1];
    expect(sessionId).toBeDefined();
    await writeFile(file, text);
    const resumed = await piped(file, "--name", "piped-bad", "--resume", sessionId!, "--segment-bytes", segmentBytes);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/ as 1 of 6 segments \(the others were there\) in /);
    expect((await remote("verify", "piped-bad", file)).code).toBe(0);
  });
});

describe("a CLI killed mid-upload", () => {
  test("then --resume finishes the session with identical content", { timeout: 120_000 }, async () => {
    const text = numbersText(400_000, 4);
    const file = join(fixture.directory, "killed.txt");
    await writeFile(file, text);
    const segmentBytes = Math.ceil(text.length / 12);
    let sessionId: string | undefined;
    const killed = await runCli(
      [
        "upload",
        file,
        "--segment-bytes",
        String(segmentBytes),
        "--parallel",
        "1",
        "--url",
        fixture.worker.url,
        "--token",
        fixture.worker.token,
      ],
      {
        cwd: fixture.directory,
        // As under `npx drainpipe` (npm sets npm_command=exec), so the printed command starts with npx.
        env: { npm_command: "exec" },
        onStart: (child) => {
          let stderr = "";
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
            sessionId ??= /upload session (\S+) /.exec(stderr)?.[1];
          });
          const poll = setInterval(async () => {
            if (sessionId === undefined) return;
            const response = await fetch(`${fixture.worker.url}/files/killed.txt/uploads/${sessionId}`, {
              headers: { Authorization: `Bearer ${fixture.worker.token}` },
            }).catch(() => undefined);
            const session = (await response?.json().catch(() => undefined)) as { segments?: unknown[] } | undefined;
            if ((session?.segments?.length ?? 0) >= 3) {
              clearInterval(poll);
              child.kill("SIGKILL");
            }
          }, 20);
          child.on("exit", () => clearInterval(poll));
        },
      },
    );
    expect(killed.code).toBeNull();
    expect(sessionId).toBeDefined();
    expect(killed.stderr).toContain(
      `resume it with:\n  npx drainpipe upload ${file} --name killed.txt --resume ${sessionId} ` +
        `--segment-bytes ${segmentBytes} --url ${fixture.worker.url}/ --token <token>\n`,
    );
    const resumed = await remote(
      "upload",
      file,
      "--resume",
      sessionId!,
      "--segment-bytes",
      String(segmentBytes),
      "--json",
    );
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as { segments: number; sentSegments: number };
    expect(result.segments).toBe(12);
    expect(result.sentSegments).toBeLessThanOrEqual(9);
    expect((await remote("verify", "killed.txt", file)).code).toBe(0);
  });
});
