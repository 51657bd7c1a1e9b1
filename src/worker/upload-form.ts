/**
 * What `POST /files/:name` makes of a form: a `multipart/form-data` body (an HTML form with
 * `enctype="multipart/form-data"`, `curl -F file=@primes.txt`) is stored from its file field, streamed through the
 * same pipeline as a raw body; a URL-encoded form, which carries a file's name but not its bytes, is refused.
 *
 * @module
 */
import { FormFileStream, formBoundary } from "./form-file-stream.ts";
import { HttpError } from "./http-error.ts";

/**
 * The stage that takes the file out of an upload's form body, or `undefined` when the body is not a form (it is
 * stored as it is).
 *
 * @throws {HttpError} `415 unsupported-media-type` for `application/x-www-form-urlencoded`, naming what to send
 * instead; `400 invalid-form` for `multipart/form-data` without a boundary.
 * @example
 * ```ts
 * uploadForm("text/plain"); // undefined
 * uploadForm("multipart/form-data; boundary=x") instanceof FormFileStream; // true
 * ```
 */
export function uploadForm(contentType: string | null): FormFileStream | undefined {
  if (contentType !== null && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new HttpError(
      415,
      "unsupported-media-type",
      "Cannot store a URL-encoded form: it carries the file's name, not its bytes; send the file as the body, as " +
        'a multipart/form-data form (enctype="multipart/form-data", curl -F "file=@primes.txt"), or through /tus',
    );
  }
  const boundary = formBoundary(contentType);
  return boundary === undefined ? undefined : new FormFileStream(boundary);
}
