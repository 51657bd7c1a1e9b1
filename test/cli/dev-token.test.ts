import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { prepareDevToken } from "../../src/cli/dev-token.ts";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-prestart-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const URL = "http://127.0.0.1:8787";

async function prepare(url = URL): Promise<string> {
  return (await prepareDevToken(join(directory, ".dev.vars"), url)).join("\n");
}

describe("npm start's token step (dev-token.ts)", () => {
  test("creates .dev.vars with a random API_TOKEN and prints it with a curl line", async () => {
    const printed = await prepare();
    const path = join(directory, ".dev.vars");
    const content = await readFile(path, "utf8");
    const token = /^API_TOKEN=([A-Za-z0-9_-]{43})$/m.exec(content)?.[1];
    expect(token).toBeDefined();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(printed).toContain(`token: ${token}`);
    expect(printed).toContain(`the upload page: http://127.0.0.1:8787/#token=${token}`);
    expect(printed).toContain(
      `curl -H 'Expect:' -H "Authorization: Bearer ${token}" ` +
        "--data-binary @primes.txt 'http://127.0.0.1:8787/files/primes'",
    );

    const again = await prepare();
    expect(await readFile(path, "utf8")).toBe(content);
    expect(again).toContain(`using the API_TOKEN from .dev.vars`);
    expect(again).toContain(`Bearer ${token}`);
  });

  test("makes a different token each time it creates the file", async () => {
    await prepare();
    const first = await readFile(join(directory, ".dev.vars"), "utf8");
    await rm(join(directory, ".dev.vars"));
    await prepare();
    expect(await readFile(join(directory, ".dev.vars"), "utf8")).not.toBe(first);
  });

  test("leaves an existing .dev.vars without a token alone and says what is missing", async () => {
    await writeFile(join(directory, ".dev.vars"), "PUBLIC_READS=true\n");
    const printed = await prepare();
    expect(await readFile(join(directory, ".dev.vars"), "utf8")).toBe("PUBLIC_READS=true\n");
    expect(printed).toContain(".dev.vars has no API_TOKEN line");
  });

  test("prints a curl line without a token when .dev.vars opens the worker", async () => {
    await writeFile(join(directory, ".dev.vars"), "AUTH_MODE=open\n");
    const printed = await prepare();
    expect(printed).toContain(`curl -H 'Expect:' --data-binary @primes.txt 'http://127.0.0.1:8787/files/primes'`);
    expect(printed).not.toContain("Authorization");
    expect(printed).toMatch(/the upload page: http:\/\/127\.0\.0\.1:8787\/$/);
  });

  test("every line it prints names the address it is given", async () => {
    await writeFile(join(directory, ".dev.vars"), "API_TOKEN=t0k3n\n");
    const printed = await prepare("http://127.0.0.1:8801");
    expect(printed).toContain("'http://127.0.0.1:8801/files/primes'");
    expect(printed).toContain("npx drainpipe ls --url http://127.0.0.1:8801 --token t0k3n");
    expect(printed).toContain("the upload page: http://127.0.0.1:8801/#token=t0k3n");
    expect(printed).not.toContain("8787");
  });
});
