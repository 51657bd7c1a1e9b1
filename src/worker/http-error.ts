import { InvalidNameError } from "../files/file-name.ts";
import { StoreNumbersError } from "../files/store-numbers.ts";
import type { ErrorBody } from "../http-contract/bodies.ts";
import type { ErrorCode } from "../http-contract/error-code.ts";
import { NumberParseError } from "../numbers/number-parse-error.ts";
import { PartSizeError } from "../split/part-size.ts";
import { NumberLimitError, PartLimitError } from "../split/part-splitter.ts";
import { causedBy } from "../store/caused-by.ts";
import { OverBudgetError } from "../store/over-budget-error.ts";
import { StoreError } from "../store/store-error.ts";
import { SubrequestLimitError } from "../store/subrequest-limit-error.ts";
import { ReadTimeoutError } from "../streams/adapters/read-pace.ts";

/**
 * An error with an HTTP status, rendered as `{ "error": code, "detail": message, ...extra }`.
 *
 * @example
 * ```ts
 * const error = new HttpError(404, "not-found", `No file named "primes"`);
 * error.status; // 404
 * ```
 */
export class HttpError extends Error {
  override name = "HttpError";
  /** The response status. */
  readonly status: number;
  /** A stable, machine-readable error code. */
  readonly code: ErrorCode;
  /** Extra fields for the JSON body (e.g. `line` and `column`). */
  readonly extra: Record<string, unknown>;
  /** Extra response headers (e.g. `Allow`). */
  readonly headers: Record<string, string>;

  /** Builds the error; `detail` becomes the message. */
  constructor(
    status: number,
    code: ErrorCode,
    detail: string,
    options: { cause?: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

/**
 * Maps any error thrown while handling a request to an {@linkcode HttpError}: bad input becomes a 4xx
 * naming what was wrong, storage failures 502, anything else 500.
 */
export function toHttpError(error: unknown): HttpError {
  const root = error instanceof StoreNumbersError ? error.cause : error;
  if (root instanceof HttpError) return root;
  if (root instanceof NumberParseError) {
    return new HttpError(400, "invalid-number", root.message, {
      cause: error,
      extra: { line: root.line, column: root.column, offset: root.offset, reason: root.reason },
    });
  }
  if (root instanceof InvalidNameError) return new HttpError(400, "invalid-name", root.message, { cause: error });
  if (root instanceof PartSizeError)
    return new HttpError(400, "invalid-max-part-bytes", root.message, { cause: error });
  if (root instanceof NumberLimitError) return new HttpError(413, "too-many-numbers", root.message, { cause: error });
  if (root instanceof PartLimitError) return new HttpError(413, "too-many-parts", root.message, { cause: error });
  const refused = causedBy(root, OverBudgetError);
  if (refused)
    return new HttpError(422, "over-budget", refused.message, { cause: error, extra: { ...refused.counts } });
  const overBudget = causedBy(root, SubrequestLimitError);
  if (overBudget) {
    return new HttpError(
      422,
      "over-budget",
      `${overBudget.message}; send less per request (smaller uploads, larger parts)`,
      {
        cause: error,
        extra: { limit: overBudget.limit },
      },
    );
  }
  const stalled = causedBy(root, ReadTimeoutError);
  if (stalled) {
    return new HttpError(408, "body-too-slow", `${stalled.message}; send the body faster or in smaller requests`, {
      cause: error,
      extra: { bytes: stalled.bytes, timeoutMs: stalled.timeoutMs },
    });
  }
  if (root instanceof StoreError) return new HttpError(502, "storage-failed", root.message, { cause: error });
  const detail = root instanceof Error ? root.message : String(root);
  return new HttpError(500, "internal", detail, { cause: error });
}

/** Renders an error as a JSON response. */
export function errorResponse(error: unknown): Response {
  const httpError = toHttpError(error);
  const body: ErrorBody = { error: httpError.code, detail: httpError.message, ...httpError.extra };
  return Response.json(body, { status: httpError.status, headers: httpError.headers });
}
