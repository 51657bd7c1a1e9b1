/**
 * What the page shows when an upload fails: the worker's own words when it refused the upload (a bad line with
 * its line and column above all), else the uploader's message.
 *
 * @module
 */
import { ErrorCode } from "../http-contract/error-code.ts";
import { type ErrorBody, errorBodyIn } from "./api-error.ts";
import type { Refusal } from "./refusals.ts";

/** A failed upload, for the person who started it. */
export interface UploadFailure {
  /** One line: what failed. */
  title: string;
  /** The worker's `detail` (or the uploader's message). */
  detail: string;
  /** The HTTP status of the refusal, when the worker answered. */
  status?: number;
  /** The worker's error body, when it answered with one: `line`, `column` and `offset` for a bad line. */
  body?: ErrorBody;
}

/** The part of a tus-js-client response read here. */
export interface TusResponse {
  getStatus(): number;
  getBody(): string;
}

/** The part of a tus-js-client `DetailedError` read here (Uppy passes it on, at times wrapped in `cause`). */
interface TusErrorShape {
  message?: unknown;
  cause?: unknown;
  originalResponse?: TusResponse | null;
}

/**
 * Describes the error of Uppy's `upload-error` event for `fileName`. A refusal of the worker (a tus
 * `DetailedError` with the response) gives its `detail` and, for `invalid-number`, the line and column of the bad
 * input in the file. `recorded` gives the refusal as it arrived for the error's response (see `refusals.ts`);
 * without it the response is read as it is now.
 *
 * @example
 * ```ts
 * import type Uppy from "@uppy/core";
 * import { Refusals } from "./refusals.ts";
 * declare const uppy: Uppy;
 * declare function show(failure: UploadFailure): void;
 * const refusals = new Refusals();
 * uppy.on("upload-error", (file, error) => {
 *   show(describeUploadFailure(file?.name ?? "the file", error, (response) => refusals.of(response)));
 * });
 * ```
 */
export function describeUploadFailure(
  fileName: string,
  error: unknown,
  recorded: (response: TusResponse) => Refusal | undefined = () => undefined,
): UploadFailure {
  const response = tusResponse(error);
  const refusal = response && (recorded(response) ?? { status: response.getStatus(), body: response.getBody() });
  if (refusal && refusal.status !== 0) {
    const status = refusal.status;
    const body = errorBodyIn(refusal.body);
    if (body?.error === ErrorCode.invalidNumber && body.line !== undefined) {
      return { title: `"${fileName}" has a bad line`, detail: body.detail, status, body };
    }
    if (body)
      return { title: `The worker refused "${fileName}" (${status} ${body.error})`, detail: body.detail, status, body };
    return { title: `The worker refused "${fileName}" (${status})`, detail: messageOf(error), status };
  }
  return { title: `Cannot upload "${fileName}"`, detail: messageOf(error) };
}

/**
 * Where a bad line is, in words.
 *
 * @example
 * ```ts
 * const bad = { error: "invalid-number", detail: "…", line: 3, column: 2, offset: 5 } as const;
 * position(bad); // "line 3, column 2 (byte offset 5)"
 * ```
 */
export function position(body: ErrorBody): string {
  const words = [`line ${body.line}`];
  if (body.column !== undefined) words.push(`column ${body.column}`);
  const where = words.join(", ");
  return body.offset === undefined ? where : `${where} (byte offset ${body.offset})`;
}

/** The response inside `error` or its causes, as tus-js-client attaches it. */
function tusResponse(error: unknown): TusResponse | undefined {
  for (let at = error as TusErrorShape | undefined, depth = 0; at && depth < 4; depth++) {
    if (at.originalResponse) return at.originalResponse;
    at = typeof at.cause === "object" && at.cause !== null ? (at.cause as TusErrorShape) : undefined;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const message = (error as TusErrorShape | undefined)?.message;
  return typeof message === "string" && message !== "" ? message : String(error);
}
