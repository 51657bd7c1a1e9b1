import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { ensureNode26, STREAM_ITER_FLAG } from "../../../scripts/node26.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const SCRIPT = "test/streams/iterable/stream-iter-checks.ts";

test("the bridges pass their checks against node:stream/iter on Node 26", { timeout: 600_000 }, async () => {
  const node = ensureNode26();
  const { stdout } = await promisify(execFile)(node, [STREAM_ITER_FLAG, "--no-warnings", SCRIPT], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout}\n${error.stderr}` }));
  const lines = stdout.trim().split("\n");
  expect(lines.filter((line) => line.startsWith("not ok"))).toEqual([]);
  expect(lines.filter((line) => line.startsWith("ok "))).toHaveLength(9);
  expect(lines.at(-1)).toBe("stream-iter: 9/9 passed");
});
