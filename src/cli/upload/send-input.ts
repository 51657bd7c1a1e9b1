/**
 * Choosing how an input goes: one `POST`, an upload session, or (a stream of unknown size) either, once enough of it
 * has arrived to tell.
 *
 * @module
 */
import type { WorkerClient } from "../worker-client.ts";
import { sendOverBudgetAsSession } from "./over-budget-fallback.ts";
import type { SendContext } from "./send-context.ts";
import { sendSession } from "./send-session.ts";
import { sendStream } from "./send-stream.ts";
import { sendWhole } from "./send-whole.ts";
import type { UploadInput } from "./upload-inputs.ts";
import type { UploadOutcome } from "./upload-result.ts";

/**
 * Files larger than this go as an upload session when the worker does not say its own limit (a worker older than
 * `GET /limits`): its default `MAX_SEGMENT_BYTES`, the smallest plan's body limit less a margin.
 */
export const DEFAULT_SESSION_THRESHOLD_BYTES = 95_000_000;

/** How an input goes: one POST, an upload session, or either, decided as the stream arrives. */
export type SendingMode = "whole" | "session" | "stream";

/**
 * How `input` goes: `whole` as one POST, `session` as an upload session (asked for, or a regular file larger than
 * `threshold`), `stream` as either, decided once more than `threshold` bytes have arrived or the stream has ended.
 *
 * @example
 * ```ts
 * const source = { path: "primes.txt", stream: new ReadableStream<Uint8Array>(), size: 8_245_905 };
 * sendingMode({ source, name: "primes", session: "by-size" }, 95_000_000); // "whole"
 * sendingMode({ source, name: "primes", session: "asked" }, 95_000_000); // "session"
 * sendingMode({ source: { ...source, size: undefined }, name: "primes", session: "by-size" }, 95_000_000); // "stream"
 * ```
 */
export function sendingMode(input: UploadInput, threshold: number): SendingMode {
  const { size } = input.source;
  if (input.session === "asked") return "session";
  if (size === undefined) return "stream";
  return size > threshold ? "session" : "whole";
}

/**
 * The size over which a file goes as an upload session: the worker's `maxSegmentBytes` (`GET /limits`, so a Free-plan
 * worker's `MAX_SEGMENT_BYTES` sizes every request), or {@linkcode DEFAULT_SESSION_THRESHOLD_BYTES} from a worker
 * older than that route.
 *
 * @example
 * ```ts
 * import type { WorkerClient } from "../worker-client.ts";
 * declare const client: WorkerClient;
 * const threshold = await sessionThreshold(client); // the worker's MAX_SEGMENT_BYTES, or 95,000,000
 * ```
 */
export async function sessionThreshold(client: WorkerClient): Promise<number> {
  return (await client.limits())?.maxSegmentBytes ?? DEFAULT_SESSION_THRESHOLD_BYTES;
}

/**
 * Sends `input` the way {@linkcode sendingMode} chooses; one POST refused as over the worker's budget goes again as
 * an upload session.
 *
 * @example
 * ```ts
 * import type { SendContext } from "./send-context.ts";
 * import type { UploadInput } from "./upload-inputs.ts";
 * declare const context: SendContext;
 * declare const input: UploadInput;
 * const result = await sendInput(context, input, await sessionThreshold(context.client));
 * ```
 */
export function sendInput(context: SendContext, input: UploadInput, threshold: number): Promise<UploadOutcome> {
  const mode = sendingMode(input, threshold);
  if (mode === "session") return sendSession(context, input.source, input.name);
  if (mode === "stream") return sendStream(context, input, threshold);
  return sendWhole(context, input.source, input.name).catch((error: unknown) =>
    sendOverBudgetAsSession(error, context, input),
  );
}
