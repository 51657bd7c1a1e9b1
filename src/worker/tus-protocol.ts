/**
 * The headers of the tus resumable upload protocol 1.0.0 (tus.io), parsed and checked: what `tus-routes.ts` reads
 * from a request and writes into a response.
 *
 * @module
 */
import { base64ToBytes } from "./base64.ts";
import { HttpError } from "./http-error.ts";

/** The protocol version spoken. */
export const TUS_VERSION = "1.0.0";

/** The extensions supported, as `Tus-Extension` lists them. */
export const TUS_EXTENSIONS = [
  "creation",
  "creation-with-upload",
  "creation-defer-length",
  "termination",
  "checksum",
  "expiration",
  "concatenation",
] as const;

/** The checksum algorithms of `Upload-Checksum`, as `Tus-Checksum-Algorithm` lists them. */
export const TUS_CHECKSUM_ALGORITHMS = ["sha1", "sha256"] as const;

/** A checksum algorithm of `Upload-Checksum`. */
export type TusChecksumAlgorithm = (typeof TUS_CHECKSUM_ALGORITHMS)[number];

/** The content type of a PATCH body (and of a creation request that carries data). */
export const TUS_CONTENT_TYPE = "application/offset+octet-stream";

/** The status of a checksum mismatch (tus checksum extension). */
export const CHECKSUM_MISMATCH = 460;

/** The headers a tus client reads from a response, exposed to other origins (CORS). */
export const TUS_EXPOSED_HEADERS = [
  "Upload-Offset",
  "Location",
  "Upload-Length",
  "Tus-Version",
  "Tus-Resumable",
  "Tus-Max-Size",
  "Tus-Extension",
  "Tus-Checksum-Algorithm",
  "Upload-Metadata",
  "Upload-Defer-Length",
  "Upload-Concat",
  "Upload-Expires",
] as const;

/** The request headers a tus client sends, allowed from other origins (CORS). */
export const TUS_REQUEST_HEADERS = [
  "Authorization",
  "Content-Type",
  "Tus-Resumable",
  "Upload-Offset",
  "Upload-Length",
  "Upload-Defer-Length",
  "Upload-Metadata",
  "Upload-Checksum",
  "Upload-Concat",
  "X-HTTP-Method-Override",
  "X-Requested-With",
  "If-Match",
  "If-None-Match",
] as const;

/** The header every tus response carries (the worker adds it to every answer of {@linkcode isTusPath}). */
export const TUS_RESUMABLE: Readonly<Record<string, string>> = { "Tus-Resumable": TUS_VERSION };

/**
 * Whether `path` (relative to the API's prefix) is a tus route's.
 *
 * @example
 * ```ts
 * isTusPath("/tus/abc"); // true
 * isTusPath("/files/tus"); // false
 * ```
 */
export function isTusPath(path: string): boolean {
  return /^\/tus(\/|$)/.test(path);
}

/**
 * Checks that the request speaks tus 1.0.0 (`Tus-Resumable`).
 *
 * @throws {HttpError} `412 unsupported-tus-version` with `Tus-Version` when the header is missing or another version.
 */
export function requireTusResumable(request: Request): void {
  const version = request.headers.get("Tus-Resumable");
  if (version?.trim() === TUS_VERSION) return;
  throw new HttpError(
    412,
    "unsupported-tus-version",
    version === null
      ? `Cannot handle a tus request without Tus-Resumable: send Tus-Resumable: ${TUS_VERSION}`
      : `Cannot handle tus version "${version}": this server speaks ${TUS_VERSION}`,
    { headers: { "Tus-Version": TUS_VERSION } },
  );
}

/**
 * A header holding a byte count or offset (`Upload-Length`, `Upload-Offset`): a non-negative decimal integer;
 * `undefined` when absent.
 *
 * @throws {HttpError} `400 invalid-header` naming the header when it is not one.
 */
export function byteCountHeader(request: Request, header: string): number | undefined {
  const text = request.headers.get(header);
  if (text === null) return undefined;
  const value = /^[0-9]{1,16}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new HttpError(400, "invalid-header", `Cannot use ${header} "${text}": expected a whole number of bytes`);
  }
  return value;
}

/** The longest `Upload-Metadata` kept with an upload (and echoed by `HEAD`), in characters. */
export const MAX_METADATA_LENGTH = 4096;

/**
 * The pairs of `Upload-Metadata`: comma-separated `key base64value` (or a key alone), values decoded as UTF-8.
 *
 * @throws {HttpError} `400 invalid-metadata` when a key is empty or repeated, or a value is not base64 of UTF-8;
 * `431 header-too-large` past {@linkcode MAX_METADATA_LENGTH} characters.
 * @example
 * ```ts
 * const request = new Request("https://x/tus", { headers: { "Upload-Metadata": "name cHJpbWVz,private" } });
 * uploadMetadata(request).get("name"); // "primes"
 * uploadMetadata(request).get("private"); // ""
 * ```
 */
export function uploadMetadata(request: Request): Map<string, string> {
  const header = request.headers.get("Upload-Metadata");
  const pairs = new Map<string, string>();
  if (header === null || header.trim() === "") return pairs;
  if (header.length > MAX_METADATA_LENGTH) {
    throw new HttpError(
      431,
      "header-too-large",
      `Cannot keep Upload-Metadata of ${header.length} characters: ` +
        `at most ${MAX_METADATA_LENGTH} are kept with an upload`,
    );
  }
  for (const member of header.split(",")) {
    const [key = "", value, extra] = member.trim().split(/ +/);
    if (key === "" || extra !== undefined || pairs.has(key)) {
      throw new HttpError(
        400,
        "invalid-metadata",
        `Cannot read Upload-Metadata "${member.trim()}": expected "key base64value" pairs with distinct keys`,
      );
    }
    pairs.set(key, value === undefined ? "" : decodeValue(key, value));
  }
  return pairs;
}

function decodeValue(key: string, value: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(base64ToBytes(value));
  } catch (error) {
    throw new HttpError(
      400,
      "invalid-metadata",
      `Cannot read Upload-Metadata "${key}": its value is not base64 of UTF-8 text`,
      { cause: error },
    );
  }
}

/** What `Upload-Concat` asks for: a partial upload, or the final upload of the listed partial uploads' ids. */
export type UploadConcat = { kind: "partial" } | { kind: "final"; ids: string[] };

/**
 * `Upload-Concat`, or `undefined` when absent. The final form lists upload URLs (absolute or paths); each URL's last
 * path segment is the partial upload's id.
 *
 * @throws {HttpError} `400 invalid-concat` when the header is neither form, or a final lists no upload.
 */
export function uploadConcat(request: Request): UploadConcat | undefined {
  const header = request.headers.get("Upload-Concat");
  if (header === null) return undefined;
  const text = header.trim();
  if (text === "partial") return { kind: "partial" };
  if (text.startsWith("final;")) {
    const urls = text
      .slice("final;".length)
      .trim()
      .split(/\s+/)
      .filter((url) => url !== "");
    if (urls.length > 0) return { kind: "final", ids: urls.map(lastSegment) };
  }
  throw new HttpError(
    400,
    "invalid-concat",
    `Cannot use Upload-Concat "${header}": expected "partial" or "final;<upload URL> <upload URL> …"`,
  );
}

function lastSegment(url: string): string {
  const path = url.replace(/[?#].*$/, "").replace(/\/+$/, "");
  const segment = path.slice(path.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** An `Upload-Checksum`: the algorithm and the expected digest (base64). */
export interface UploadChecksum {
  /** The algorithm. */
  algorithm: TusChecksumAlgorithm;
  /** The expected digest of the request body, base64. */
  digest: string;
}

/**
 * `Upload-Checksum`, or `undefined` when absent.
 *
 * @throws {HttpError} `400 unsupported-checksum` for another algorithm or a malformed value.
 */
export function uploadChecksum(request: Request): UploadChecksum | undefined {
  const header = request.headers.get("Upload-Checksum");
  if (header === null) return undefined;
  const match = /^\s*([A-Za-z0-9-]+)\s+([A-Za-z0-9+/]+={0,2})\s*$/.exec(header);
  const algorithm = match?.[1]?.toLowerCase();
  if (match === null || !TUS_CHECKSUM_ALGORITHMS.includes(algorithm as TusChecksumAlgorithm)) {
    throw new HttpError(
      400,
      "unsupported-checksum",
      `Cannot check Upload-Checksum "${header}": expected "<algorithm> <base64 digest>" with one of ` +
        TUS_CHECKSUM_ALGORITHMS.join(", "),
    );
  }
  return { algorithm: algorithm as TusChecksumAlgorithm, digest: match[2]! };
}

/**
 * Checks that a request carrying upload data says so (`Content-Type: application/offset+octet-stream`).
 *
 * @throws {HttpError} `415 unsupported-media-type` otherwise.
 */
export function requireOffsetOctetStream(request: Request): void {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type === TUS_CONTENT_TYPE) return;
  throw new HttpError(
    415,
    "unsupported-media-type",
    `Cannot take upload data of Content-Type "${type ?? ""}": send ${TUS_CONTENT_TYPE}`,
  );
}

/** A time as `Upload-Expires` gives it (RFC 9110's IMF-fixdate). */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}
