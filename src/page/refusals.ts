/**
 * The worker's refusals of tus requests, kept as they arrived. tus-js-client's error for a refused request points
 * at the request's `XMLHttpRequest`, but Uppy aborts that request once the upload failed, which resets its status
 * to 0 and empties its body before the page hears of the failure: the page keeps each refusal's status and body
 * when it arrives (tus-js-client's `onAfterResponse`), to read them back from the error.
 *
 * @module
 */
import type { HttpRequest, HttpResponse } from "tus-js-client";

/** A refusal as it arrived. */
export interface Refusal {
  /** The HTTP status, 400 or more. */
  status: number;
  /** The body, the worker's error JSON. */
  body: string;
}

/**
 * The refusals of one page, by tus-js-client response (the `originalResponse` of its `DetailedError`).
 *
 * @example
 * ```ts
 * import type { DetailedError } from "tus-js-client";
 * declare const error: DetailedError; // a failed upload's
 * const refusals = new Refusals();
 * // Given to tus-js-client as its option `onAfterResponse: refusals.record`, then, after a bad line:
 * // { status: 400, body: '{"error":"invalid-number",…}' }
 * const refusal = error.originalResponse && refusals.of(error.originalResponse);
 * ```
 */
export class Refusals {
  readonly #byResponse = new WeakMap<object, Refusal>();

  /** tus-js-client's `onAfterResponse`: keeps the status and body of an answer of 400 or more. */
  readonly record = (_request: HttpRequest, response: HttpResponse): void => {
    const status = response.getStatus();
    if (status >= 400) this.#byResponse.set(response, { status, body: response.getBody() });
  };

  /** The refusal `response` (a tus-js-client response) was, as it arrived; `undefined` for one not recorded. */
  of(response: object): Refusal | undefined {
    return this.#byResponse.get(response);
  }
}
