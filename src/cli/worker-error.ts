import type { ErrorBody } from "../http-contract/bodies.ts";
import type { ErrorCode } from "../http-contract/error-code.ts";
import { parseErrorBody } from "../http-contract/reply-parsers.ts";
import { CliError } from "./cli-error.ts";

/** An error answer that is not the worker's error body (a proxy's page, say): its status text and its text. */
export interface ForeignReply {
  /** The answer's status text (`Bad Gateway`), possibly empty. */
  statusText: string;
  /** The start of the answer's body. */
  text: string;
}

/**
 * The worker answered with an error status (4xx or 5xx). The message names the status, the worker's error code
 * and detail, and the line and column of bad input when the worker gave them; the error's `code` is the
 * worker's, its `details` the status and the body's other fields. An answer whose body is not the worker's error
 * body (see `parseErrorBody`) is described by its status text and the start of its text instead.
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
  /** The worker's error body, checked; `undefined` when the answer did not carry one. */
  readonly body: ErrorBody | undefined;

  /** Builds the error for what `action` was trying to do, from the worker's error `reply` or a foreign one. */
  constructor(action: string, status: number, reply: ErrorBody | ForeignReply) {
    if ("error" in reply) {
      const { error: code, detail, ...facts } = reply;
      super(`Cannot ${action}: the worker answered ${status} ${code}: ${detail}${position(reply)}${hint(status)}`, {
        code,
        details: { status, ...facts },
      });
      this.body = reply;
    } else {
      const code = reply.statusText || "error";
      const excerpt = reply.text.trim().slice(0, 200);
      const detail = excerpt === "" ? "(empty response body)" : excerpt;
      super(`Cannot ${action}: the worker answered ${status} ${code}: ${detail}${hint(status)}`, {
        code,
        details: { status },
      });
      this.body = undefined;
    }
    this.status = status;
  }

  /** Whether the worker refused with `code` (and so sent its error body). */
  is(code: ErrorCode): this is WorkerError & { body: ErrorBody } {
    return this.body?.error === code;
  }

  /** Reads the error body of `response` (the worker's, or anything else) and builds the error. */
  static async from(response: Response, action: string): Promise<WorkerError> {
    const text = await response.text().catch(() => "");
    let reply: ErrorBody | ForeignReply;
    try {
      reply = parseErrorBody(text);
    } catch {
      // Not the worker's error body: described by the status and the start of the text.
      reply = { statusText: response.statusText, text };
    }
    return new WorkerError(action, response.status, reply);
  }
}

function position(body: ErrorBody): string {
  if (typeof body.line !== "number" || body.detail.includes(`line ${body.line}`)) return "";
  return typeof body.column === "number" ? ` (line ${body.line}, column ${body.column})` : ` (line ${body.line})`;
}

function hint(status: number): string {
  return status === 401 ? " (pass --token or set DRAINPIPE_TOKEN)" : "";
}
