import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runScript } from "./cli-runner.ts";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-prestart-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function prestart() {
  return runScript("src/cli/dev-token.ts", [], { cwd: directory });
}

describe("npm start's prestart (dev-token.ts)", () => {
  test("creates .dev.vars with a random API_TOKEN and prints it with a curl line", async () => {
    const run = await prestart();
    expect(run.code).toBe(0);
    const path = join(directory, ".dev.vars");
    const content = await readFile(path, "utf8");
    const token = /^API_TOKEN=([A-Za-z0-9_-]{43})$/m.exec(content)?.[1];
    expect(token).toBeDefined();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(run.stdout).toContain(`token: ${token}`);
    expect(run.stdout).toContain(`the upload page: http://127.0.0.1:8787/#token=${token}`);
    expect(run.stdout).toContain(
      `curl -H 'Expect:' -H "Authorization: Bearer ${token}" ` +
        "--data-binary @primes.txt 'http://127.0.0.1:8787/files/primes'",
    );

    const again = await prestart();
    expect(again.code).toBe(0);
    expect(await readFile(path, "utf8")).toBe(content);
    expect(again.stdout).toContain(`using the API_TOKEN from .dev.vars`);
    expect(again.stdout).toContain(`Bearer ${token}`);
  });

  test("makes a different token each time it creates the file", async () => {
    await prestart();
    const first = await readFile(join(directory, ".dev.vars"), "utf8");
    await rm(join(directory, ".dev.vars"));
    await prestart();
    expect(await readFile(join(directory, ".dev.vars"), "utf8")).not.toBe(first);
  });

  test("leaves an existing .dev.vars without a token alone and says what is missing", async () => {
    await writeFile(join(directory, ".dev.vars"), "PUBLIC_READS=true\n");
    const run = await prestart();
    expect(run.code).toBe(0);
    expect(await readFile(join(directory, ".dev.vars"), "utf8")).toBe("PUBLIC_READS=true\n");
    expect(run.stdout).toContain(".dev.vars has no API_TOKEN line");
  });

  test("prints a curl line without a token when .dev.vars opens the worker", async () => {
    await writeFile(join(directory, ".dev.vars"), "AUTH_MODE=open\n");
    const run = await prestart();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`curl -H 'Expect:' --data-binary @primes.txt 'http://127.0.0.1:8787/files/primes'`);
    expect(run.stdout).not.toContain("Authorization");
    expect(run.stdout).toContain("the upload page: http://127.0.0.1:8787/\n");
  });
});
