/**
 * The validators of a file's versions (RFC 9110 §8.8): a strong `ETag` made of the version's upload id, the same on
 * its manifest, its content and each of its parts, and `Last-Modified`, when it was published. Both come from the
 * version record alone, so any read that knows which version it serves can send them.
 *
 * @module
 */
import type { Manifest } from "../files/manifest.ts";

/** What a version's validators are made of: its upload id and when it was published. */
export type VersionStamp = Pick<Manifest, "uploadId" | "createdAt">;

/** One entity tag of an `If-Match`, `If-None-Match` or `If-Range` header. */
export interface EntityTag {
  /** Whether it is weak (`W/"…"`). */
  weak: boolean;
  /** What is between the quotes. */
  opaque: string;
}

/**
 * The strong entity tag of a version: its upload id in quotes.
 *
 * @example
 * ```ts
 * versionEtag({ uploadId: "mfx1-0a1b2c3d" }); // '"mfx1-0a1b2c3d"'
 * ```
 */
export function versionEtag(version: Pick<VersionStamp, "uploadId">): string {
  return `"${version.uploadId}"`;
}

/**
 * The `ETag` and `Last-Modified` headers of a version.
 *
 * @example
 * ```ts
 * const headers = validatorHeaders({ uploadId: "u1", createdAt: "2026-01-01T00:00:00.000Z" });
 * headers["Last-Modified"]; // "Thu, 01 Jan 2026 00:00:00 GMT"
 * ```
 */
export function validatorHeaders(version: VersionStamp): { ETag: string; "Last-Modified": string } {
  return { ETag: versionEtag(version), "Last-Modified": new Date(version.createdAt).toUTCString() };
}

/** When `version` was published, to the second (the precision of HTTP dates), in ms since the epoch. */
export function lastModified(version: VersionStamp): number {
  return Math.floor(Date.parse(version.createdAt) / 1000) * 1000;
}

/**
 * The entity tags of a header's value: `"*"` for `*`, else the list (what does not parse as an entity tag is
 * left out, so it matches nothing).
 *
 * @example
 * ```ts
 * parseEntityTags('"a", W/"b"'); // [{ weak: false, opaque: "a" }, { weak: true, opaque: "b" }]
 * parseEntityTags(" * "); // "*"
 * ```
 */
export function parseEntityTags(value: string): "*" | EntityTag[] {
  if (value.trim() === "*") return "*";
  return [...value.matchAll(/(W\/)?"([^"]*)"/g)].map((match) => ({ weak: match[1] !== undefined, opaque: match[2]! }));
}

/**
 * Whether one of `tags` matches `version`'s entity tag: strongly (`If-Match`, `If-Range`: a weak tag never
 * matches) or weakly (`If-None-Match`). `*` matches any version.
 */
export function matchesVersion(tags: "*" | EntityTag[], version: VersionStamp, strong: boolean): boolean {
  if (tags === "*") return true;
  return tags.some((tag) => tag.opaque === version.uploadId && !(strong && tag.weak));
}
