/**
 * What `POST /files/:name` makes of a form: a `multipart/form-data` body (an HTML form with
 * `enctype="multipart/form-data"`, `curl -F file=@primes.txt`) is stored from its file field, streamed through the
 * same pipeline as a raw body. A body labelled `application/x-www-form-urlencoded` is stored as it is: that is
 * what `curl --data-binary` labels any body with; when it was an HTML form without that `enctype` (which sends the
 * file's name, not its bytes), the bad first line it makes is answered with a hint.
 *
 * @module
 */
import { FormFileStream, formBoundary } from "./form-file-stream.ts";
import { HttpError, toHttpError } from "./http-error.ts";

/**
 * The stage that takes the file out of an upload's form body, or `undefined` when the body is not a multipart form
 * (it is stored as it is).
 *
 * @throws {HttpError} `400 invalid-form` for `multipart/form-data` without a boundary.
 * @example
 * ```ts
 * import { FormFileStream } from "./form-file-stream.ts";
 * uploadForm("text/plain"); // undefined
 * uploadForm("application/x-www-form-urlencoded"); // undefined
 * uploadForm("multipart/form-data; boundary=x") instanceof FormFileStream; // true
 * ```
 */
export function uploadForm(contentType: string | null): FormFileStream | undefined {
  const boundary = formBoundary(contentType);
  return boundary === undefined ? undefined : new FormFileStream(boundary);
}

/**
 * `error`, an upload's failure, as the `HttpError` to answer: a bad first line of a body labelled
 * `application/x-www-form-urlencoded` (an HTML form sent without `enctype="multipart/form-data"` looks so) gets a hint
 * at what to send instead.
 *
 * @example
 * ```ts
 * import { NumberParseError } from "../numbers/number-parse-error.ts";
 * const bad = new NumberParseError({ reason: "unexpected-byte", line: 1, column: 1, offset: 0, byte: 0x66 });
 * uploadFailure(bad, "application/x-www-form-urlencoded").message.includes("multipart/form-data"); // true
 * ```
 */
export function uploadFailure(error: unknown, contentType: string | null): HttpError {
  const refused = toHttpError(error);
  const urlEncoded = contentType !== null && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
  if (!urlEncoded || refused.code !== "invalid-number" || refused.extra.line !== 1) return refused;
  return new HttpError(
    refused.status,
    refused.code,
    `${refused.message} (if this is an HTML form, it sent the file's name, not its bytes: give the form ` +
      'enctype="multipart/form-data", or send the file as the body or through /tus)',
    { cause: error, extra: refused.extra, headers: refused.headers },
  );
}
