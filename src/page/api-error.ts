/**
 * A refusal of the worker's API, with the `{ error, detail, … }` body every error of the worker carries.
 *
 * @module
 */
import type { ErrorBody } from "../worker/api-types.ts";

/** The JSON body of an error answer of the worker (the worker's own type; `README.md`, "The HTTP API"). */
export type { ErrorBody } from "../worker/api-types.ts";

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
 * Reads `text` as the worker's error body: an object with a string `error`, else `undefined` (an answer from
 * something else on the way, such as a proxy's HTML page).
 *
 * @example
 * ```ts
 * parseErrorBody('{"error":"invalid-number","detail":"line 3, column 1: …","line":3,"column":1,"offset":4}');
 * // { error: "invalid-number", detail: "line 3, column 1: …", line: 3, column: 1, offset: 4 }
 * ```
 */
export function parseErrorBody(text: string): ErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const body = parsed as Record<string, unknown>;
  if (typeof body.error !== "string") return undefined;
  return {
    error: body.error,
    detail: typeof body.detail === "string" ? body.detail : body.error,
    ...(typeof body.line === "number" ? { line: body.line } : {}),
    ...(typeof body.column === "number" ? { column: body.column } : {}),
    ...(typeof body.offset === "number" ? { offset: body.offset } : {}),
  };
}

/** The {@linkcode ApiError} for `response`, an answer outside 2xx (its body is read). */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  return new ApiError(response.status, parseErrorBody(await response.text().catch(() => "")));
}
