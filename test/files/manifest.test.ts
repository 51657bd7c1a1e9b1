import { describe, expect, test } from "vitest";
import { buildManifest, type Manifest, parseManifest } from "../../src/files/manifest.ts";
import { RecordFormatError } from "../../src/files/record-format.ts";

const part = { index: 0, key: "p/uploads/u1/part-00000000", bytes: 4, numbers: 2, first: 2, last: 3, etag: "e0" };

function uploadManifest(digest?: string): Manifest {
  return buildManifest({
    name: "p",
    uploadId: "u1",
    maxPartBytes: 1024,
    source: { kind: "upload", bytes: 4, lines: 2, canonical: true, ...(digest ? { digest } : {}) },
    parts: [part],
  });
}

function readFailure(read: () => unknown): RecordFormatError {
  try {
    read();
  } catch (error) {
    if (error instanceof RecordFormatError) return error;
    throw error;
  }
  throw new Error("expected a RecordFormatError");
}

describe("parseManifest", () => {
  test.each([
    ["an upload", uploadManifest()],
    ["an upload with a digest", uploadManifest("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")],
    [
      "segments",
      buildManifest({
        name: "p",
        uploadId: "s1",
        maxPartBytes: 1024,
        source: { kind: "segments", segments: 1, bytes: 4, lines: 2, canonical: true, digests: ["d"] },
        parts: [part],
      }),
    ],
    [
      "primes",
      buildManifest({ name: "p", uploadId: "u2", maxPartBytes: 1024, source: { kind: "primes", count: 0 }, parts: [] }),
    ],
  ])("reads back %s manifest as written", (_kind, manifest) => {
    expect(parseManifest(JSON.stringify(manifest, null, 2))).toEqual(manifest);
  });

  test("refuses another version, naming it", () => {
    const text = JSON.stringify({ ...uploadManifest(), version: 2 });
    expect(readFailure(() => parseManifest(text)).message).toBe(
      "Cannot read manifest: version 2 is not supported (expected 1)",
    );
  });

  test("refuses text that is not JSON, with the JSON error as cause", () => {
    const failure = readFailure(() => parseManifest("{ not json"));
    expect(failure.message).toMatch(/^Cannot read manifest: /);
    expect(failure.cause).toBeInstanceOf(SyntaxError);
  });

  test.each([
    ["a missing field", { uploadId: undefined }, '"uploadId" must be a string'],
    ["totals that are not an object", { totals: 3 }, 'expected "totals" to be an object'],
    ["an unknown source kind", { source: { kind: "ftp" } }, 'unknown source kind "ftp"'],
    ["a part of the wrong shape", { parts: [{ ...part, etag: 7 }] }, '"etag" must be a string'],
    ["an array", null, "expected a JSON object"],
  ])("refuses %s", (_what, change, reason) => {
    const text = JSON.stringify(change === null ? [uploadManifest()] : { ...uploadManifest(), ...change });
    expect(readFailure(() => parseManifest(text)).message).toBe(`Cannot read manifest: ${reason}`);
  });
});
