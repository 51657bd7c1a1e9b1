/**
 * Retries with exponential backoff for work that may meet a passing failure: a network error or a 5xx answer.
 * A 4xx answer is the request's own fault and is never retried.
 *
 * @module
 */
import { ErrorCode } from "../http-contract/error-code.ts";
import { CliError } from "./cli-error.ts";
import { WorkerError } from "./worker-error.ts";

/** Options of {@linkcode withRetries}. */
export interface RetryOptions {
  /** Tries in all (default 5). */
  attempts?: number;
  /** The wait before the first retry, doubled before each next one (default 500 ms). */
  firstDelayMs?: number;
  /** Stops retrying (the last error is thrown) once aborted. */
  signal?: AbortSignal | undefined;
  /** Called before each retry with the failure. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * Whether `error` may pass if the same request is sent again: the worker answered 5xx (but `503 subrequest-limit`,
 * which the same request meets again), or could not be reached or answer at all.
 *
 * @example
 * ```ts
 * import { WorkerError } from "./worker-error.ts";
 * isRetryable(new WorkerError("send", 503, { error: "lease-lost", detail: "…" })); // true
 * isRetryable(new WorkerError("send", 400, { error: "invalid-number", detail: "…" })); // false
 * ```
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof WorkerError) return error.status >= 500 && !error.is(ErrorCode.subrequestLimit);
  return error instanceof CliError && (error.code === "unreachable" || error.code === "no-answer");
}

/**
 * Runs `task`, trying again after `firstDelayMs`, twice that, … while it fails with a retryable error.
 *
 * @example
 * ```ts
 * declare const send: () => Promise<void>;
 * await withRetries(send, { attempts: 4 });
 * ```
 */
export async function withRetries<T>(task: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  let delay = options.firstDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error) || options.signal?.aborted) throw error;
      options.onRetry?.(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}
