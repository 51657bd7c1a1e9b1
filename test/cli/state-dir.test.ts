import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findStateDir } from "../../src/cli/state-dir.ts";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "drainpipe-state-dir-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findStateDir", () => {
  test("takes the nearest .wrangler/state upward, then the project root's, then the directory's own", async () => {
    const outer = join(root, "outer");
    const project = join(outer, "project");
    const deep = join(project, "src", "cli");
    await mkdir(deep, { recursive: true });
    expect(findStateDir(deep)).toBe(join(deep, ".wrangler", "state"));

    await writeFile(join(project, "package.json"), "{}\n");
    expect(findStateDir(deep)).toBe(join(project, ".wrangler", "state"));

    await mkdir(join(outer, ".wrangler", "state"), { recursive: true });
    expect(findStateDir(deep)).toBe(join(outer, ".wrangler", "state"));

    await mkdir(join(project, ".wrangler", "state"), { recursive: true });
    expect(findStateDir(deep)).toBe(join(project, ".wrangler", "state"));
    expect(findStateDir(project)).toBe(join(project, ".wrangler", "state"));
  });

  test("ignores a .wrangler/state that is a file", async () => {
    const dir = join(root, "odd");
    await mkdir(join(dir, ".wrangler"), { recursive: true });
    await writeFile(join(dir, ".wrangler", "state"), "");
    await writeFile(join(dir, "package.json"), "{}\n");
    expect(findStateDir(dir)).toBe(join(dir, ".wrangler", "state"));
  });
});
