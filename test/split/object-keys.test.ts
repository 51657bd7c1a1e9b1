import { describe, expect, test } from "vitest";
import {
  filePrefix,
  manifestKey,
  newUploadId,
  partKey,
  uploadIdOfKey,
  uploadPrefix,
} from "../../src/split/object-keys.ts";

describe("object keys", () => {
  test("a file's objects all live under its prefix", () => {
    const id = newUploadId();
    expect(manifestKey("primes")).toBe("primes/manifest.json");
    expect(uploadPrefix("primes", id)).toBe(`primes/uploads/${id}/`);
    expect(partKey("primes", id, 7)).toBe(`primes/uploads/${id}/part-00000007`);
    for (const key of [manifestKey("primes"), partKey("primes", id, 0)])
      expect(key.startsWith(filePrefix("primes"))).toBe(true);
  });

  test("uploadIdOfKey reads the upload id back from a part key, and nothing from other keys", () => {
    const id = newUploadId();
    expect(uploadIdOfKey("primes", partKey("primes", id, 3))).toBe(id);
    expect(uploadIdOfKey("primes", manifestKey("primes"))).toBeNull();
    expect(uploadIdOfKey("primes", "primes/uploads/")).toBeNull();
    expect(uploadIdOfKey("primes", "primes/uploads/no-slash")).toBeNull();
    expect(uploadIdOfKey("prime", partKey("primes", id, 0))).toBeNull();
    expect(uploadIdOfKey("primes", "primes/stray.txt")).toBeNull();
  });
});
