/**
 * A refusal of the worker's API, with the `{ error, detail, … }` body every error of the worker carries.
 *
 * @module
 */
import type { ErrorBody } from "../http-contract/bodies.ts";
import { parseErrorBody } from "../http-contract/reply-parsers.ts";

/** The JSON body of an error answer of the worker (the worker's own type; `docs/http-api.md`). */
export type { ErrorBody } from "../http-contract/bodies.ts";

/** An answer of the worker outside 2xx. */
export class ApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The parsed error body, when the answer carried one. */
  readonly body: ErrorBody | undefined;

  /** An error for an answer with `status` and, when it was JSON, `body`. */
  constructor(status: number, body: ErrorBody | undefined) {
    super(body ? `${body.detail} (${status} ${body.error})` : `The worker answered ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

/**
 * The worker's error body in `text` (checked by the HTTP contract's `parseErrorBody`), else `undefined`: an answer
 * from something else on the way, such as a proxy's HTML page.
 *
 * @example
 * ```ts
 * errorBodyIn('{"error":"invalid-number","detail":"line 3, column 1: …","line":3,"column":1,"offset":4}');
 * // { error: "invalid-number", detail: "line 3, column 1: …", line: 3, column: 1, offset: 4 }
 * errorBodyIn("<html>Bad Gateway</html>"); // undefined
 * ```
 */
export function errorBodyIn(text: string): ErrorBody | undefined {
  try {
    return parseErrorBody(text);
  } catch {
    return undefined;
  }
}

/** The {@linkcode ApiError} for `response`, an answer outside 2xx (its body is read). */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  return new ApiError(response.status, errorBodyIn(await response.text().catch(() => "")));
}
