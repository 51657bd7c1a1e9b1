/**
 * The `Range` request header (RFC 9110 §14.2) for one byte range: `bytes=a-b`, `bytes=a-` and `bytes=-n`.
 *
 * @module
 */

/** One byte range of a representation: bytes `offset` … `offset + length − 1`. */
export interface ByteRange {
  /** The first byte, 0-based. */
  offset: number;
  /** How many bytes, at least 1. */
  length: number;
}

/** One range spec: `first-last`, `first-` or `-suffix`. */
const RANGE_SPEC = /^(?:([0-9]+)-([0-9]*)|-([0-9]+))$/;

/**
 * What the `Range` header `header` asks of a representation of `size` bytes: one range within it; `"unsatisfiable"`
 * when the one range it names starts past the end (or is a suffix of 0 bytes); or `null`, the whole representation,
 * when there is no header, it is not a valid `bytes` range, or it names several ranges (drainpipe answers those
 * with the whole body rather than `multipart/byteranges`).
 *
 * @example
 * ```ts
 * requestedRange("bytes=0-99", 1000); // { offset: 0, length: 100 }
 * requestedRange("bytes=-10", 1000); // { offset: 990, length: 10 }
 * requestedRange("bytes=1000-", 1000); // "unsatisfiable"
 * requestedRange("bytes=5-1", 1000); // null
 * ```
 */
export function requestedRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (header === null) return null;
  const unit = /^\s*bytes\s*=(.*)$/i.exec(header);
  const specs =
    unit?.[1]
      ?.split(",")
      .map((spec) => spec.trim())
      .filter((spec) => spec !== "") ?? [];
  if (specs.length !== 1) return null;
  const match = RANGE_SPEC.exec(specs[0]!);
  if (!match) return null;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) {
    const length = Math.min(Number(suffix), size);
    return length === 0 ? "unsatisfiable" : { offset: size - length, length };
  }
  const offset = Number(first);
  if (last !== "" && Number(last) < offset) return null;
  if (offset >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { offset, length: end - offset + 1 };
}

/**
 * The `Content-Range` of `range` of a representation of `size` bytes; for an unsatisfiable range, `bytes *` and
 * the size after a slash, as a `416` carries it.
 *
 * @example
 * ```ts
 * contentRange({ offset: 0, length: 100 }, 1000); // "bytes 0-99/1000"
 * ```
 */
export function contentRange(range: ByteRange | "unsatisfiable", size: number): string {
  return range === "unsatisfiable"
    ? `bytes */${size}`
    : `bytes ${range.offset}-${range.offset + range.length - 1}/${size}`;
}
