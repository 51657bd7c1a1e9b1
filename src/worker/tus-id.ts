/**
 * The ids of tus uploads, the last segment of their URLs (`/tus/<id>`), and which coordinator owns each: an upload
 * of a named file (`<token>~<name>`) belongs to that name's coordinator; a partial upload (`<token>`), which has no
 * name, to a coordinator of its own, named `_tus.<token>` (no file name starts with `_`, so the two never meet).
 *
 * @module
 */
import { assertValidName, InvalidNameError } from "../files/file-name.ts";
import { HttpError } from "./http-error.ts";

/** What the coordinator name of a partial upload starts with; the objects it stores live under it too. */
export const PARTIAL_OWNER_PREFIX = "_tus.";

/** A parsed tus upload id. */
export interface TusId {
  /** The id as in the URL. */
  id: string;
  /** The coordinator that owns the upload: the file's name, or the partial upload's own. */
  owner: string;
}

/** A fresh random token: the time in base 36 and 20 random hex digits. */
function newToken(): string {
  return `${Date.now().toString(36)}${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

/**
 * A new id for an upload of the file `name`, or of a partial upload when `name` is `null`.
 *
 * @example
 * ```ts
 * newTusId("primes").owner; // "primes"
 * newTusId(null).owner.startsWith("_tus."); // true
 * ```
 */
export function newTusId(name: string | null): TusId {
  const token = newToken();
  return name === null
    ? { id: token, owner: `${PARTIAL_OWNER_PREFIX}${token}` }
    : { id: `${token}~${name}`, owner: name };
}

/**
 * The id `text` (from a URL) with its owner.
 *
 * @throws {HttpError} `404 no-such-upload` when it is no id this worker makes.
 */
export function parseTusId(text: string): TusId {
  const at = text.indexOf("~");
  const token = at === -1 ? text : text.slice(0, at);
  if (/^[0-9a-z]{8,40}$/.test(token)) {
    if (at === -1) return { id: text, owner: `${PARTIAL_OWNER_PREFIX}${token}` };
    try {
      return { id: text, owner: assertValidName(text.slice(at + 1)) };
    } catch (error) {
      if (!(error instanceof InvalidNameError)) throw error;
    }
  }
  throw new HttpError(404, "no-such-upload", `No tus upload "${text}"`);
}

/** Whether `name`, a top-level folder of the bucket, is that of a partial upload's coordinator. */
export function isPartialOwner(name: string): boolean {
  return name.startsWith(PARTIAL_OWNER_PREFIX) && /^[0-9a-z]{8,40}$/.test(name.slice(PARTIAL_OWNER_PREFIX.length));
}
