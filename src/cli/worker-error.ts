import type { ErrorBody } from "../worker/api-types.ts";
import { CliError } from "./cli-error.ts";

/**
 * The worker answered with an error status (4xx or 5xx). The message names the status, the worker's error code
 * and detail, and the line and column of bad input when the worker gave them; the error's `code` is the
 * worker's, its `details` the status and the body's other fields.
 *
 * @example
 * ```ts
 * declare const url: string;
 * const response = await fetch(url);
 * if (!response.ok) throw await WorkerError.from(response, `list files at ${url}`);
 * ```
 */
export class WorkerError extends CliError {
  override name = "WorkerError";
  /** The HTTP status. */
  readonly status: number;
  /** The worker's JSON error body, or one made from the status when the body was not JSON. */
  readonly body: ErrorBody;

  /** Builds the error for what `action` was trying to do. */
  constructor(action: string, status: number, body: ErrorBody) {
    const { error: code, detail: _detail, ...facts } = body;
    super(
      `Cannot ${action}: the worker answered ${status} ${body.error}: ${body.detail}${position(body)}${hint(status)}`,
      { code, details: { status, ...facts } },
    );
    this.status = status;
    this.body = body;
  }

  /** Reads the error body of `response` (JSON or not) and builds the error. */
  static async from(response: Response, action: string): Promise<WorkerError> {
    const text = await response.text().catch(() => "");
    return new WorkerError(action, response.status, parseBody(text, response));
  }
}

function parseBody(text: string, response: Response): ErrorBody {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null && "error" in body && typeof body.error === "string") {
      const detail = "detail" in body && typeof body.detail === "string" ? body.detail : "(no detail)";
      return { ...(body as Record<string, unknown>), error: body.error, detail };
    }
  } catch {
    // Not JSON: described below from the status and the start of the text.
  }
  const excerpt = text.trim().slice(0, 200);
  return { error: response.statusText || "error", detail: excerpt === "" ? "(empty response body)" : excerpt };
}

function position(body: ErrorBody): string {
  if (typeof body.line !== "number" || body.detail.includes(`line ${body.line}`)) return "";
  return typeof body.column === "number" ? ` (line ${body.line}, column ${body.column})` : ` (line ${body.line})`;
}

function hint(status: number): string {
  return status === 401 ? " (pass --token or set DRAINPIPE_TOKEN)" : "";
}
