/**
 * The machine-readable codes of the HTTP API's error replies (`{ "error": code, "detail": … }`): every code the
 * worker sends, named once so that the worker can send no other and clients compare against these values rather
 * than against string literals of their own.
 *
 * @module
 */

/**
 * Every error code of the HTTP API, by a camel-case key: `ErrorCode.overBudget` is `"over-budget"`. Grouped by what
 * was refused; the HTTP API's documentation says when each is sent.
 *
 * @example
 * ```ts
 * declare const reply: { error: ErrorCode };
 * if (reply.error === ErrorCode.overBudget) console.log("send less per request");
 * ```
 */
export const ErrorCode = {
  // Authentication and configuration.
  unauthorized: "unauthorized",
  authNotConfigured: "auth-not-configured",
  misconfigured: "misconfigured",
  // Routing.
  notFound: "not-found",
  methodNotAllowed: "method-not-allowed",
  invalidPath: "invalid-path",
  // Query parameters and headers.
  invalidName: "invalid-name",
  invalidMaxPartBytes: "invalid-max-part-bytes",
  invalidCount: "invalid-count",
  invalidLimit: "invalid-limit",
  missingFrom: "missing-from",
  invalidFrom: "invalid-from",
  missingValue: "missing-value",
  invalidValue: "invalid-value",
  invalidSegmentIndex: "invalid-segment-index",
  invalidHeader: "invalid-header",
  invalidDigest: "invalid-digest",
  headerTooLarge: "header-too-large",
  // Bodies.
  invalidNumber: "invalid-number",
  invalidBody: "invalid-body",
  invalidForm: "invalid-form",
  missingFile: "missing-file",
  formFieldsTooLarge: "form-fields-too-large",
  unsupportedMediaType: "unsupported-media-type",
  lengthMismatch: "length-mismatch",
  digestMismatch: "digest-mismatch",
  bodyTooLarge: "body-too-large",
  bodyTooSlow: "body-too-slow",
  fileTooLarge: "file-too-large",
  tooManyNumbers: "too-many-numbers",
  tooManyParts: "too-many-parts",
  // Budgets and storage.
  overBudget: "over-budget",
  subrequestLimit: "subrequest-limit",
  storageFailed: "storage-failed",
  leaseLost: "lease-lost",
  internal: "internal",
  // Conditional requests and reads.
  preconditionFailed: "precondition-failed",
  rangeNotSatisfiable: "range-not-satisfiable",
  linesNotSatisfiable: "lines-not-satisfiable",
  noLineIndex: "no-line-index",
  notSorted: "not-sorted",
  // Listings.
  tooManyFiles: "too-many-files",
  // Upload sessions.
  noSuchUpload: "no-such-upload",
  tooManySessions: "too-many-sessions",
  missingSegments: "missing-segments",
  cutLines: "cut-lines",
  // tus uploads.
  unsupportedTusVersion: "unsupported-tus-version",
  invalidMetadata: "invalid-metadata",
  missingName: "missing-name",
  missingLength: "missing-length",
  missingOffset: "missing-offset",
  offsetMismatch: "offset-mismatch",
  uploadLengthExceeded: "upload-length-exceeded",
  uploadComplete: "upload-complete",
  unsupportedChecksum: "unsupported-checksum",
  checksumMismatch: "checksum-mismatch",
  patchTooLarge: "patch-too-large",
  patchSuperseded: "patch-superseded",
  tooManyPatches: "too-many-patches",
  invalidConcat: "invalid-concat",
  notPartial: "not-partial",
  partialGone: "partial-gone",
  partialUnfinished: "partial-unfinished",
  tooManyPartials: "too-many-partials",
} as const;

/** One of the error codes of {@linkcode ErrorCode}: the `error` field of every error reply. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/**
 * Whether `value` is one of the API's error codes.
 *
 * @example
 * ```ts
 * isErrorCode("over-budget"); // true
 * isErrorCode("Bad Gateway"); // false
 * ```
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && CODES.has(value);
}
