import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { UsageError } from "../../src/cli/cli-error.ts";
import { sessionSegments, smallestSegmentBytes } from "../../src/cli/session-segments.ts";

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-segments-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("sessionSegments", () => {
  test("the smallest size it names works, one byte less does not, for short lines", async () => {
    const path = join(directory, "short-lines.txt");
    const text = "7\n".repeat(30_001);
    await writeFile(path, text);
    const file = { path, size: text.length };
    const smallest = smallestSegmentBytes(text.length);
    expect(smallest).toBe(7);
    expect((await sessionSegments(file, smallest)).length).toBeLessThanOrEqual(10_000);
    const refused = sessionSegments(file, smallest - 1);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toMatchObject({
      code: "too-many-segments",
      details: { segmentBytes: 6, maxSegments: 10_000, minSegmentBytes: 7 },
    });
  });

  test("lines longer than the segment size make fewer segments, so a small size may still fit", async () => {
    const path = join(directory, "long-lines.txt");
    const text = `${"1".repeat(99)}\n`.repeat(50);
    await writeFile(path, text);
    const ranges = await sessionSegments({ path, size: text.length }, 1);
    expect(ranges).toHaveLength(50);
    expect(ranges.at(-1)?.end).toBe(text.length);
  });
});
