/**
 * Where a file's objects live in the bucket:
 *
 * - `<name>/manifest.json`: the manifest, written last; its presence is the only sign of a complete result;
 * - `<name>/uploads/<uploadId>/part-00000000`: the parts of one upload attempt, zero-padded so keys sort;
 * - `<name>/uploads/<uploadId>/line-index`: the attempt's line index (when a part has more than 512 lines).
 *
 * Each attempt writes under its own upload id, so replacing a file never overwrites parts a reader of the
 * previous manifest may still be reading.
 *
 * @module
 */

/** Digits in a part key's index: enough for a 100 GB input split into 1 KiB parts. */
const PART_INDEX_DIGITS = 8;

/** The key of a file's manifest. */
export function manifestKey(name: string): string {
  return `${name}/manifest.json`;
}

/** The prefix under which every object of a file (manifest and all attempts' parts) lives. */
export function filePrefix(name: string): string {
  return `${name}/`;
}

/** The prefix of all parts of one upload attempt. */
export function uploadPrefix(name: string, uploadId: string): string {
  return `${name}/uploads/${uploadId}/`;
}

/**
 * The key of part `index` (0-based) of an upload attempt.
 *
 * @example
 * ```ts
 * partKey("primes", "lq2x9-1a2b3c4d", 3); // "primes/uploads/lq2x9-1a2b3c4d/part-00000003"
 * ```
 */
export function partKey(name: string, uploadId: string, index: number): string {
  return `${uploadPrefix(name, uploadId)}part-${String(index).padStart(PART_INDEX_DIGITS, "0")}`;
}

/**
 * The key of the line index of an upload attempt (see `line-index.ts`): one object next to its parts.
 *
 * @example
 * ```ts
 * lineIndexKey("primes", "m1-ab"); // "primes/uploads/m1-ab/line-index"
 * ```
 */
export function lineIndexKey(name: string, uploadId: string): string {
  return `${uploadPrefix(name, uploadId)}line-index`;
}

/**
 * The key of the line index that holds the entries of the part stored under `key`: the one its attempt wrote.
 *
 * @example
 * ```ts
 * lineIndexKeyOfPart("primes/uploads/m1-ab/part-00000003"); // "primes/uploads/m1-ab/line-index"
 * ```
 */
export function lineIndexKeyOfPart(key: string): string {
  return `${key.slice(0, key.lastIndexOf("/") + 1)}line-index`;
}

/**
 * A new upload id: a base-36 timestamp (so attempts sort by start time) and 8 random hex digits.
 *
 * @example
 * ```ts
 * // The time in base 36, a dash, 8 random hex digits, say "mgx3k2p1-9f1c04ab":
 * /^[0-9a-z]+-[0-9a-f]{8}$/.test(newUploadId()); // true
 * ```
 */
export function newUploadId(): string {
  return `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * The upload id of an object under `<name>/uploads/<uploadId>/`, or `null` for any other key.
 *
 * @example
 * ```ts
 * uploadIdOfKey("primes", "primes/uploads/m1-ab/part-00000000"); // "m1-ab"
 * uploadIdOfKey("primes", "primes/manifest.json"); // null
 * ```
 */
export function uploadIdOfKey(name: string, key: string): string | null {
  const prefix = `${name}/uploads/`;
  if (!key.startsWith(prefix)) return null;
  const end = key.indexOf("/", prefix.length);
  return end > prefix.length ? key.slice(prefix.length, end) : null;
}
