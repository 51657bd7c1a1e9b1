/**
 * The HTTP API's own header names (beside the standard ones and tus's, which `worker/tus-protocol.ts` holds), named
 * once for the worker that reads or writes them and the clients that do the other.
 *
 * @module
 */

/**
 * Request header of `POST /files/:name`: a token the client chooses for the attempt, shown as `attempt` in
 * `GET /files/:name/uploads` so that the client can find its own attempt there.
 */
export const ATTEMPT_HEADER = "Drainpipe-Attempt";

/** Response header of `GET /files/:name/lines`: the index of the first line the answer holds. */
export const LINE_FROM_HEADER = "Drainpipe-Line-From";

/** Response header of `GET /files/:name/lines`: how many lines the answer holds (fewer than asked at the end). */
export const LINE_COUNT_HEADER = "Drainpipe-Line-Count";

/** Response header of `GET /files/:name/lines`: how many lines the file has. */
export const LINE_TOTAL_HEADER = "Drainpipe-Line-Total";

/** The response headers of drainpipe's own, which a page of another origin may read (CORS). */
export const EXPOSED_DRAINPIPE_HEADERS = [LINE_FROM_HEADER, LINE_COUNT_HEADER, LINE_TOTAL_HEADER] as const;
