/**
 * The error of a reply that does not have the shape the HTTP API promises.
 *
 * @module
 */

/**
 * A reply of the worker is not what the HTTP API promises for it: not JSON, or a field missing or of the wrong type
 * (a worker of another version, or something else answering in its place). The message names the reply and the
 * field; a JSON syntax error, or the files layer's error for a manifest, is the `cause`.
 *
 * @example
 * ```ts
 * const error = new ReplyFormatError("GET /files", "cursor", "must be a string or null");
 * error.message; // 'Cannot read the reply to GET /files: "cursor" must be a string or null'
 * ```
 */
export class ReplyFormatError extends Error {
  override name = "ReplyFormatError";
  /** The reply that was wrong, as its route (`GET /files`). */
  readonly reply: string;
  /** The path of the field that was wrong (`files[2].totals.bytes`), or `""` for the whole body. */
  readonly field: string;

  /** An error for `field` of `reply`, which `problem` describes ("must be a number"). */
  constructor(reply: string, field: string, problem: string, options?: ErrorOptions) {
    super(`Cannot read the reply to ${reply}: ${field === "" ? "the body" : `"${field}"`} ${problem}`, options);
    this.reply = reply;
    this.field = field;
  }
}
