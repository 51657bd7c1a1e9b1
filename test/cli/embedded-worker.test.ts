import type { ChildProcess } from "node:child_process";
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FileSummary } from "../../src/files/file-catalog.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { type CliRun, runCli } from "./cli-runner.ts";

// The CLI without --url: every run starts the worker embedded in local workerd (a few seconds each) with R2
// persisted under --state-dir, so separate runs see the same files.
let directory: string;
let stateDir: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-embedded-"));
  stateDir = join(directory, "state");
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function embedded(...args: string[]): Promise<CliRun> {
  return runCli([...args, "--state-dir", stateDir], { cwd: directory });
}

describe("the embedded worker", () => {
  test("upload, then ls, get, verify and rm in later runs, all on the state persisted on disk", {
    timeout: 120_000,
  }, async () => {
    const file = join(directory, "numbers.txt");
    const text = Array.from({ length: 5000 }, (_, i) => `${i * i - 1000}\n`).join("");
    await writeFile(file, text);

    const upload = await embedded("upload", file, "--name", "squares", "--json");
    expect(upload.code).toBe(0);
    const manifest = (JSON.parse(upload.stdout) as { manifest: Manifest }).manifest;
    expect(manifest.totals).toMatchObject({ numbers: 5000, bytes: text.length });
    expect(await readdir(stateDir)).toContain("v3");

    const ls = await embedded("ls", "--json");
    expect(ls.code).toBe(0);
    expect((JSON.parse(ls.stdout) as { files: FileSummary[] }).files).toEqual([
      { name: "squares", createdAt: manifest.createdAt, totals: manifest.totals },
    ]);

    const get = await embedded("get", "squares");
    expect(get).toMatchObject({ code: 0, stdout: text });

    const verify = await embedded("verify", "squares", file, "--json");
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({
      identical: true,
      localBytes: text.length,
      storedBytes: text.length,
    });

    expect((await embedded("rm", "squares")).code).toBe(0);
    const empty = await embedded("ls");
    expect(empty).toMatchObject({ code: 0, stdout: "no files\n" });
  });

  test("without --state-dir, a command in a subdirectory finds the project's store above it and names it", {
    timeout: 120_000,
  }, async () => {
    const project = join(directory, "project");
    const store = join(project, ".wrangler", "state");
    const nested = join(project, "src", "deep");
    await mkdir(nested, { recursive: true });
    await writeFile(join(project, "package.json"), "{}\n");
    const file = join(project, "five.txt");
    await writeFile(file, "2\n3\n5\n7\n11\n");

    // No store yet: the project root's (the nearest package.json) is made, not one in the subdirectory.
    const upload = await runCli(["upload", file, "--json"], { cwd: nested });
    expect(upload.code).toBe(0);
    expect(upload.stderr).toContain(
      `drainpipe: starting the embedded worker (local workerd) with its state in ${store}\n`,
    );
    await expect(access(join(nested, ".wrangler"))).rejects.toThrow(/ENOENT/);

    const ls = await runCli(["ls", "--json"], { cwd: join(project, "src") });
    expect(ls.code).toBe(0);
    expect(ls.stderr).toContain(`with its state in ${store}\n`);
    expect((JSON.parse(ls.stdout) as { files: FileSummary[] }).files.map((f) => f.name)).toEqual(["five.txt"]);
  });

  test("drainpipe dev keeps one worker running that other commands attach to, until Ctrl-C", {
    timeout: 120_000,
  }, async () => {
    const devState = join(directory, "dev-state");
    let ready: () => void;
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    let dev: ChildProcess | undefined;
    const devRun = runCli(["dev", "--state-dir", devState], {
      cwd: directory,
      onStart: (child) => {
        dev = child;
        let stdout = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("Ctrl-C stops it")) ready();
        });
      },
    });
    await started;
    const file = join(directory, "dev.txt");
    await writeFile(file, "2\n3\n5\n");
    const upload = await runCli(["upload", file, "--state-dir", devState, "--json"], { cwd: directory });
    expect(upload.code).toBe(0);
    expect(upload.stderr).toMatch(/^drainpipe: using drainpipe dev's worker \(pid \d+\) with its state in /);
    const ls = await runCli(["ls", "--state-dir", devState], { cwd: directory });
    expect(ls.stderr).toContain(
      `drainpipe: using drainpipe dev's worker (pid ${dev!.pid}) with its state in ${devState}`,
    );
    expect(ls.stdout).toMatch(/^dev\.txt +3 /m);

    const second = await runCli(["dev", "--state-dir", devState], { cwd: directory });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`one runs there already (pid ${dev!.pid}`);

    dev!.kill("SIGINT");
    const stopped = await devRun;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("drainpipe dev: stopped");
    await expect(access(join(devState, "drainpipe-dev.json"))).rejects.toThrow(/ENOENT/);
    const alone = await runCli(["ls", "--state-dir", devState], { cwd: directory });
    expect(alone.stderr).toContain("drainpipe: starting the embedded worker");
    expect(alone.stdout).toMatch(/^dev\.txt +3 /m);
  });

  test("a missing file fails before the worker starts, leaving no state behind", async () => {
    const fresh = join(directory, "untouched-state");
    const run = await runCli(["upload", "nowhere.txt", "--state-dir", fresh], { cwd: directory });
    expect(run).toMatchObject({ code: 1, stderr: `drainpipe: Cannot read "nowhere.txt": no such file\n` });
    await expect(access(fresh)).rejects.toThrow(/ENOENT/);
  });

  test("--state-dir cannot be combined with --url", async () => {
    const run = await runCli(["ls", "--state-dir", stateDir, "--url", "http://127.0.0.1:8787"], { cwd: directory });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot be used with option '--url <url>'");
  });
});
