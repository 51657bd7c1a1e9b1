import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Manifest } from "../../../src/files/manifest.ts";
import { useRemoteWorker } from "../remote-worker.ts";

// The CLI against a worker on the Free plan (50 subrequests per request): a file whose parts do not fit one
// request still uploads, as a session in segments of the size the worker answers, and reads back whole.
const fixture = useRemoteWorker("drainpipe-free-plan-", { PLAN: "free" });
const remote = (...args: string[]) => fixture.remote(args);

describe("uploads on the Free plan", () => {
  test("a file of ~200 parts goes as a session sized by the worker and reads back whole", {
    timeout: 180_000,
  }, async () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `${i * 7919}\n`).join("");
    const file = join(fixture.directory, "small-parts.txt");
    await writeFile(file, text);
    const upload = await remote("upload", file, "--max-part-bytes", "1024", "--json");
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toContain("sending it as an upload session instead");
    const result = JSON.parse(upload.stdout) as { manifest: Manifest; segments: number };
    expect(result.manifest.parts.length).toBeGreaterThan(150);
    // Every segment fits 50 subrequests: about 41 parts of 1 KiB each.
    expect(result.segments).toBeGreaterThanOrEqual(Math.ceil(result.manifest.parts.length / 42));
    const out = join(fixture.directory, "small-parts.out");
    const get = await remote("get", "small-parts.txt", "-o", out);
    expect(get.code, get.stderr).toBe(0);
    expect(await readFile(out, "utf8")).toBe(text);
  });
});
