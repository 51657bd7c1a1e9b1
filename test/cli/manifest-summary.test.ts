import { describe, expect, test } from "vitest";
import { summarizeManifest } from "../../src/cli/manifest-summary.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import type { PartRecord } from "../../src/split/part-splitter.ts";

function manifestOf(partCount: number): Manifest {
  const parts = Array.from({ length: partCount }, (_, index) => ({
    index,
    numbers: index === 0 ? 1 : 1000,
    bytes: 4096,
    first: index * 1000,
    last: index * 1000 + 999,
  })) as unknown as PartRecord[];
  return {
    version: 1,
    name: "primes",
    uploadId: "u1",
    createdAt: "2026-11-25T00:00:00.000Z",
    maxPartBytes: 4096,
    source: { kind: "upload", bytes: 4096 * partCount, lines: 1, canonical: true },
    totals: { parts: partCount, bytes: 4096 * partCount, numbers: 1000 * partCount },
    parts,
  } as unknown as Manifest;
}

describe("summarizeManifest", () => {
  test("says 1 more part, 1 number and 1 line in the singular", () => {
    const lines = summarizeManifest(manifestOf(5));
    expect(lines).toContain("  … 1 more part");
    expect(lines).toContain("  source: upload of 20.5 kB, 1 line, canonical (stored byte for byte)");
    expect(lines).toContain("  part 0: 1 number (0 … 999), 4.1 kB");
    expect(summarizeManifest(manifestOf(6))).toContain("  … 2 more parts");
  });
});
