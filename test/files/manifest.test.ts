import { describe, expect, test } from "vitest";
import { buildManifest, type Manifest, parseManifest } from "../../src/files/manifest.ts";
import { RecordFormatError } from "../../src/files/record-format.ts";

const part = {
  index: 0,
  key: "p/uploads/u1/part-00000000",
  bytes: 4,
  numbers: 2,
  first: 2,
  last: 3,
  etag: "e0",
  lineIndex: 0,
  lineIndexFirst: 512,
};

function uploadManifest(digest?: string): Manifest {
  return buildManifest({
    name: "p",
    uploadId: "u1",
    maxPartBytes: 1024,
    source: { kind: "upload", bytes: 4, lines: 2, canonical: true, ...(digest ? { digest } : {}) },
    parts: [part],
    sorted: true,
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
        sorted: false,
      }),
    ],
    [
      "primes",
      buildManifest({
        name: "p",
        uploadId: "u2",
        maxPartBytes: 1024,
        source: { kind: "primes", count: 0 },
        parts: [],
        sorted: true,
      }),
    ],
  ])("reads back %s manifest as written", (_kind, manifest) => {
    expect(parseManifest(JSON.stringify(manifest, null, 2))).toEqual(manifest);
  });

  test("refuses another version, naming it", () => {
    const text = JSON.stringify({ ...uploadManifest(), version: 3 });
    expect(readFailure(() => parseManifest(text)).message).toBe(
      "Cannot read manifest: version 3 is not supported (expected 1 to 2)",
    );
  });

  test("reads a version 1 manifest as one without a line index", () => {
    const { lineIndexEvery: _every, sorted: _sorted, ...fields } = uploadManifest();
    const old = { ...fields, version: 1, parts: [{ ...part, lineIndex: undefined, lineIndexFirst: undefined }] };
    const manifest = parseManifest(JSON.stringify(old));
    expect(manifest).toMatchObject({ version: 1, lineIndexEvery: null, sorted: null });
    expect(manifest.parts[0]).not.toHaveProperty("lineIndex");
  });

  test("reads a version 2 manifest whose parts came in part from segments stored before line indexes", () => {
    const mixed = {
      ...uploadManifest(),
      sorted: null,
      parts: [{ ...part, lineIndex: undefined, lineIndexFirst: undefined }],
    };
    const manifest = parseManifest(JSON.stringify(mixed));
    expect(manifest).toMatchObject({ version: 2, sorted: null, lineIndexEvery: 512 });
    expect(manifest.parts[0]).not.toHaveProperty("lineIndex");
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
    ["no sorted flag", { sorted: "yes" }, '"sorted" must be true or false'],
    ["an array", null, "expected a JSON object"],
  ])("refuses %s", (_what, change, reason) => {
    const text = JSON.stringify(change === null ? [uploadManifest()] : { ...uploadManifest(), ...change });
    expect(readFailure(() => parseManifest(text)).message).toBe(`Cannot read manifest: ${reason}`);
  });
});
