import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Manifest } from "../../../src/files/manifest.ts";
import { runCli } from "../cli-runner.ts";
import { useRemoteWorker } from "../remote-worker.ts";

// drainpipe lines and drainpipe search, against a worker in local workerd (--url) and the embedded worker.
const fixture = useRemoteWorker("drainpipe-lines-");

/** The squares 0, 1, 4, … of `count` numbers, one per line. */
const squares = (count: number) => Array.from({ length: count }, (_, i) => i * i);

async function store(name: string, numbers: readonly number[]): Promise<Manifest> {
  const { url, token } = fixture.worker;
  const response = await fetch(`${url}/files/${name}?maxPartBytes=4096`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: numbers.map((n) => `${n}\n`).join(""),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

describe("drainpipe lines and search with --url", () => {
  test("lines prints the lines as the worker answers them; --json gives numbers and the counts", async () => {
    const numbers = squares(3000);
    await store("squares", numbers);
    const plain = await fixture.remote(["lines", "squares", "1000", "5"]);
    expect(plain).toMatchObject({ code: 0, stdout: "1000000\n1002001\n1004004\n1006009\n1008016\n" });
    const one = await fixture.remote(["lines", "squares", "2999"]);
    expect(one).toMatchObject({ code: 0, stdout: "8994001\n" });
    const json = await fixture.remote(["lines", "squares", "2998", "10", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ from: 2998, count: 2, total: 3000, lines: [8988004, 8994001] });
  });

  test("search prints { index, value, found }", async () => {
    await store("sorted", squares(3000));
    const found = await fixture.remote(["search", "sorted", "1000000"]);
    expect(found.code).toBe(0);
    expect(found.stdout).toBe('{ "index": 1000, "value": 1000000, "found": true }\n');
    const between = await fixture.remote(["search", "sorted", "-5"]);
    expect(JSON.parse(between.stdout)).toEqual({ index: 0, value: 0, found: false });
    const past = await fixture.remote(["search", "sorted", "9000000"]);
    expect(JSON.parse(past.stdout)).toEqual({ index: 3000, value: null, found: false });
  });

  test("the worker's refusals come out as errors with a non-zero exit", async () => {
    await store("few", [3, 1, 2]);
    const past = await fixture.remote(["lines", "few", "3"]);
    expect(past.code).not.toBe(0);
    expect(past.stderr).toContain('Cannot read lines from 3 of "few": it has 3 lines');
    const bad = await fixture.remote(["lines", "few", "x"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('from "x" is not a whole number');
    const unsorted = await fixture.remote(["search", "few", "2"]);
    expect(unsorted.code).not.toBe(0);
    expect(unsorted.stderr).toContain("not in non-decreasing order");
    const value = await fixture.remote(["search", "few", "9007199254740992"]);
    expect(value.code).not.toBe(0);
    expect(value.stderr).toContain("value must be a decimal integer");
  });
});

describe("drainpipe lines and search on the embedded worker", () => {
  test("a file uploaded in one run is read by line and by value in later runs", { timeout: 120_000 }, async () => {
    const stateDir = join(fixture.directory, "embedded-state");
    const embedded = (...args: string[]) => runCli([...args, "--state-dir", stateDir], { cwd: fixture.directory });
    const file = join(fixture.directory, "squares.txt");
    await writeFile(
      file,
      squares(2000)
        .map((n) => `${n}\n`)
        .join(""),
    );
    expect((await embedded("upload", file, "--name", "sq")).code).toBe(0);
    expect(await embedded("lines", "sq", "10", "3")).toMatchObject({ code: 0, stdout: "100\n121\n144\n" });
    const search = await embedded("search", "sq", "150");
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout)).toEqual({ index: 13, value: 169, found: false });
  });
});
