/**
 * Tests and benchmarks share code only through `harness/`: nothing in `test/` imports from `bench/`, nothing in
 * `bench/` from `test/`, and `harness/` from neither, so either side can change its own helpers without breaking the
 * other.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The top folders each side must not import from. */
const FORBIDDEN: Record<string, readonly string[]> = {
  test: ["bench"],
  bench: ["test"],
  harness: ["test", "bench"],
};

/**
 * What a module imports: `import … from`, `export … from` (type-only too, over several lines), bare `import "…"`
 * and `import("…")`.
 */
const IMPORT = new RegExp(
  [
    String.raw`^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']`,
    String.raw`^\s*import\s*["']([^"']+)["']`,
    String.raw`\bimport\(\s*["']([^"']+)["']\s*\)`,
  ].join("|"),
  "gm",
);

/** A module's relative imports that reach a folder its side must not import. */
function crossings(file: string, source: string): string[] {
  const forbidden = FORBIDDEN[file.split("/")[0]!] ?? [];
  return [...source.matchAll(IMPORT)]
    .map((match) => (match[1] ?? match[2] ?? match[3])!)
    .filter((specifier) => specifier.startsWith("."))
    .filter((specifier) => {
      const target = normalize(join(dirname(file), specifier)).split(/[\\/]/)[0]!;
      return forbidden.includes(target);
    })
    .map((specifier) => `${file} imports ${specifier}`);
}

describe("imports between test/, bench/ and harness/", () => {
  test("the check finds every kind of import that crosses, and passes the allowed ones", () => {
    const source = [
      'import { a } from "../../bench/harness/stats.ts";',
      'import type { B } from "../support/bytes.ts";',
      "import {\n  type E,\n  f,\n} from '../../bench/workloads/byte-chunks.ts';",
      'export { c } from "../../harness/local-worker.ts";',
      'const d = await import("../../bench/workers/bench-worker.ts");',
    ].join("\n");
    expect(crossings("test/http/example.test.ts", source)).toEqual([
      "test/http/example.test.ts imports ../../bench/harness/stats.ts",
      "test/http/example.test.ts imports ../../bench/workloads/byte-chunks.ts",
      "test/http/example.test.ts imports ../../bench/workers/bench-worker.ts",
    ]);
    expect(crossings("bench/scenarios/x.ts", 'import type { T } from "../../test/support/bytes.ts";')).toEqual([
      "bench/scenarios/x.ts imports ../../test/support/bytes.ts",
    ]);
    expect(crossings("harness/x.ts", 'import "../bench/run.ts";\nimport "../src/cli/main.ts";')).toEqual([
      "harness/x.ts imports ../bench/run.ts",
    ]);
  });

  test("no module of test/ imports bench/, none of bench/ imports test/, none of harness/ imports either", () => {
    const files = execFileSync(
      "git",
      ["ls-files", "--cached", "--others", "--exclude-standard", "--", "test", "bench", "harness"],
      { cwd: ROOT, encoding: "utf8" },
    )
      .split("\n")
      .filter((file) => /\.(ts|mts|js|mjs)$/.test(file))
      // This file's own examples of crossing imports are strings, not imports.
      .filter((file) => file !== "test/lint/test-bench-separation.test.ts");
    expect(files.filter((file) => file.startsWith("harness/")).length).toBeGreaterThan(0);
    expect(files.flatMap((file) => crossings(file, readFileSync(join(ROOT, file), "utf8")))).toEqual([]);
  });
});
