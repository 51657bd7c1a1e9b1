import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const stdDir = process.env.DENO_STD_DIR;
const missing = stdDir === undefined || stdDir === "";
const SKIP_REASON = "DENO_STD_DIR not set: skipping Deno's @std/streams suite; see test/deno-std/README.md";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

if (missing) console.log(SKIP_REASON);

test.skipIf(missing)(
  "Deno's @std/streams suite with drainpipe's classes as the globals fails only as expectations.json says",
  { timeout: 300_000 },
  async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["test/deno-std/run.ts", "--impl", "drainpipe", "--expect", "test/deno-std/expectations.json"],
        { cwd: ROOT, timeout: 300_000 },
        (error, out, err) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout: out, stderr: err }),
      );
    });
    expect(stdout, stderr).toMatch(/^drainpipe: \d+ passed, \d+ failed$/m);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
  },
);
