import { LINE_INDEX_EVERY, lineIndexEntries } from "../split/line-index.ts";
import { lineIndexKeyOfPart, manifestKey } from "../split/object-keys.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import {
  arrayField,
  asObject,
  booleanField,
  fail,
  type JsonFields,
  numberField,
  parseRecord,
  partRecordsField,
  stringField,
} from "./record-format.ts";

/**
 * Manifest format version, bumped on incompatible changes. Version 2 added the line index (`lineIndexEvery`, each
 * part's `lineIndex`) and `sorted`; manifests of version 1 are still read, with both `null` and no part's
 * `lineIndex`.
 */
export const MANIFEST_VERSION = 2;

/** The oldest manifest version {@linkcode parseManifest} reads. */
const OLDEST_MANIFEST_VERSION = 1;

/** Where a file's numbers came from. */
export type ManifestSource =
  | {
      /** Uploaded text. */
      kind: "upload";
      /** Bytes of the uploaded body. */
      bytes: number;
      /** Lines of the uploaded body, blank ones included. */
      lines: number;
      /**
       * Whether the body was already in canonical form (one decimal integer per line, `\n` endings, no
       * blank lines, no leading zeros, no `-0`, a final newline). Non-canonical input is normalised, so the
       * stored content equals the input exactly when this is `true`.
       */
      canonical: boolean;
      /** The body's SHA-256 (base64), when the client sent a `Content-Digest` the worker checked. */
      digest?: string;
    }
  | {
      /** Uploaded as the segments of an upload session, in order. */
      kind: "segments";
      /** How many segments. */
      segments: number;
      /** Bytes of all segments. */
      bytes: number;
      /** Lines of all segments, blank ones included. */
      lines: number;
      /** Whether every segment was canonical (then the stored content equals the uploaded bytes). */
      canonical: boolean;
      /** Each segment's SHA-256 (base64), in order. */
      digests: string[];
    }
  | {
      /** Generated in the worker by the prime source. */
      kind: "primes";
      /** How many primes were asked for. */
      count: number;
    };

/**
 * The record of one complete file, stored as `<name>/manifest.json` after every part is stored. Its presence
 * is the only sign of a complete result.
 */
export interface Manifest {
  /** Format version ({@linkcode MANIFEST_VERSION}). */
  version: number;
  /** The name the file is stored under: its folder in the bucket. */
  name: string;
  /**
   * The upload this version came from, whose folder (`<name>/uploads/<uploadId>/`) holds its objects: the attempt
   * of a single request, or the session whose segments it assembles. Its `ETag` quotes it.
   */
  uploadId: string;
  /** When the manifest was written (ISO 8601). */
  createdAt: string;
  /** The part size limit the file was split with. */
  maxPartBytes: number;
  /** Where the numbers came from. */
  source: ManifestSource;
  /**
   * Lines between two entries of the parts' line index (`LINE_INDEX_EVERY`), or `null` for a file stored before
   * line indexes existed (manifest version 1), which has none.
   */
  lineIndexEvery: number | null;
  /**
   * Whether every number is at least the one before it, across parts too (`true` for no numbers), or `null` when
   * not known: a file stored before manifest version 2, or completed from a session some of whose segments were.
   */
  sorted: boolean | null;
  /** Totals over all parts. */
  totals: {
    /** How many parts the file was split into (the length of {@linkcode Manifest.parts}). */
    parts: number;
    /** Bytes of all parts together (the size of the reassembled content). */
    bytes: number;
    /** Numbers of all parts together. */
    numbers: number;
  };
  /** Each part's key, size and first and last number, in file order (index 0 first). */
  parts: PartRecord[];
}

/**
 * Builds a manifest from the parts of a finished split.
 *
 * @example
 * ```ts
 * import type { PartRecord } from "../split/part-splitter.ts";
 * declare const parts: PartRecord[];
 * const source = { kind: "primes", count: 10 } as const;
 * const manifest = buildManifest({ name: "primes", uploadId: "u1", maxPartBytes: 1024, source, parts, sorted: true });
 * manifest.totals.parts === parts.length; // true
 * ```
 */
export function buildManifest(fields: {
  name: string;
  uploadId: string;
  maxPartBytes: number;
  source: ManifestSource;
  parts: PartRecord[];
  sorted: boolean | null;
  lineIndexEvery?: number;
  createdAt?: Date;
}): Manifest {
  const { parts } = fields;
  return {
    version: MANIFEST_VERSION,
    name: fields.name,
    uploadId: fields.uploadId,
    createdAt: (fields.createdAt ?? new Date()).toISOString(),
    maxPartBytes: fields.maxPartBytes,
    source: fields.source,
    lineIndexEvery: fields.lineIndexEvery ?? LINE_INDEX_EVERY,
    sorted: fields.sorted,
    totals: {
      parts: parts.length,
      bytes: parts.reduce((sum, part) => sum + part.bytes, 0),
      numbers: parts.reduce((sum, part) => sum + part.numbers, 0),
    },
    parts,
  };
}

/**
 * The keys of every object the version `manifest` describes occupies, sorted: its manifest, its parts, and the line
 * indexes that hold their entries (one per upload attempt the parts come from, when a part has entries).
 *
 * @example
 * ```ts
 * const source = { kind: "primes", count: 0 } as const;
 * versionKeys(buildManifest({ name: "p", uploadId: "u1", maxPartBytes: 1024, source, parts: [], sorted: true }));
 * // ["p/manifest.json"]
 * ```
 */
export function versionKeys(manifest: Manifest): string[] {
  const keys = new Set([manifestKey(manifest.name)]);
  const every = manifest.lineIndexEvery;
  for (const part of manifest.parts) {
    keys.add(part.key);
    if (
      every !== null &&
      part.lineIndex !== undefined &&
      lineIndexEntries(part.numbers, every, part.lineIndexFirst ?? every) > 0
    ) {
      keys.add(lineIndexKeyOfPart(part.key));
    }
  }
  return [...keys].sort();
}

/**
 * Reads a manifest from its JSON (as `storeNumbers` or the coordinator wrote it): checks that its version is one
 * this code reads (1 to {@linkcode MANIFEST_VERSION}) and that every field has its type. A version 1 manifest reads
 * as one without a line index (`lineIndexEvery` and `sorted` `null`).
 *
 * @throws {RecordFormatError} "Cannot read manifest: …" when the text is not JSON, of another version, or a
 * field is missing or of the wrong type (a JSON error is the `cause`).
 * @example
 * ```ts
 * const source = { kind: "primes", count: 0 } as const;
 * const manifest = buildManifest({ name: "p", uploadId: "u1", maxPartBytes: 1024, source, parts: [], sorted: true });
 * parseManifest(JSON.stringify(manifest)).uploadId; // "u1"
 * parseManifest('{"version":3}'); // throws RecordFormatError "Cannot read manifest: version 3 is not supported …"
 * ```
 */
export function parseManifest(text: string): Manifest {
  const what = "manifest";
  const fields = parseRecord(text, what);
  const { version } = fields;
  if (
    typeof version !== "number" ||
    !Number.isInteger(version) ||
    version < OLDEST_MANIFEST_VERSION ||
    version > MANIFEST_VERSION
  ) {
    fail(
      what,
      `version ${JSON.stringify(version)} is not supported ` +
        `(expected ${OLDEST_MANIFEST_VERSION} to ${MANIFEST_VERSION})`,
    );
  }
  const indexed = version >= 2;
  const totals = asObject(fields.totals, what, '"totals" to be an object');
  const parts = partRecordsField(fields, "parts", what);
  return {
    version,
    name: stringField(fields, "name", what),
    uploadId: stringField(fields, "uploadId", what),
    createdAt: stringField(fields, "createdAt", what),
    maxPartBytes: numberField(fields, "maxPartBytes", what),
    source: sourceOf(asObject(fields.source, what, '"source" to be an object')),
    lineIndexEvery: indexed ? numberField(fields, "lineIndexEvery", what) : null,
    sorted: indexed && fields.sorted !== null ? booleanField(fields, "sorted", what) : null,
    totals: {
      parts: numberField(totals, "parts", what),
      bytes: numberField(totals, "bytes", what),
      numbers: numberField(totals, "numbers", what),
    },
    parts,
  };
}

/** The checked source of a manifest. */
function sourceOf(fields: JsonFields): ManifestSource {
  const what = "manifest";
  switch (fields.kind) {
    case "upload": {
      const source: ManifestSource = {
        kind: "upload",
        bytes: numberField(fields, "bytes", what),
        lines: numberField(fields, "lines", what),
        canonical: booleanField(fields, "canonical", what),
      };
      if (fields.digest !== undefined) source.digest = stringField(fields, "digest", what);
      return source;
    }
    case "segments":
      return {
        kind: "segments",
        segments: numberField(fields, "segments", what),
        bytes: numberField(fields, "bytes", what),
        lines: numberField(fields, "lines", what),
        canonical: booleanField(fields, "canonical", what),
        digests: arrayField(fields, "digests", what).map((digest) => {
          if (typeof digest !== "string") fail(what, '"digests" must hold strings');
          return digest;
        }),
      };
    case "primes":
      return { kind: "primes", count: numberField(fields, "count", what) };
    default:
      return fail(what, `unknown source kind ${JSON.stringify(fields.kind)}`);
  }
}
