/**
 * The fallback when the worker refuses a single `POST` up front as over its budget (`422 over-budget`: too many parts
 * for one request on the worker's plan): the same input again, as an upload session.
 *
 * @module
 */
import { ErrorCode } from "../../http-contract/error-code.ts";
import { openFileStream } from "../local-file.ts";
import { WorkerError } from "../worker-error.ts";
import type { SendContext } from "./send-context.ts";
import { type SessionResult, sendSession } from "./send-session.ts";
import type { UploadInput } from "./upload-inputs.ts";

/**
 * Sends `input` again as an upload session when its single POST failed with `error`, a refusal as over the worker's
 * budget, in segments of the size the session answers: a regular file opened anew, a stream that ended within the
 * limit from the bytes held (`again`). Says so on stderr.
 *
 * @throws the `error` it was given when it is not an over-budget refusal, when the input cannot be sent again (a
 * stream without `again`) or after Ctrl-C; whatever {@linkcode sendSession} throws otherwise.
 *
 * @example
 * ```ts
 * import type { SendContext } from "./send-context.ts";
 * import type { UploadInput } from "./upload-inputs.ts";
 * import type { UploadResult } from "./upload-result.ts";
 * declare const context: SendContext;
 * declare const input: UploadInput;
 * declare const sendWhole: () => Promise<UploadResult>;
 * const result = await sendWhole().catch((error: unknown) => sendOverBudgetAsSession(error, context, input));
 * ```
 */
export async function sendOverBudgetAsSession(
  error: unknown,
  context: SendContext,
  input: UploadInput,
  again: (() => ReadableStream<Uint8Array>) | undefined = undefined,
): Promise<SessionResult> {
  const overBudget = error instanceof WorkerError && error.is(ErrorCode.overBudget);
  const resendable = input.source.size !== undefined || again !== undefined;
  if (!overBudget || !resendable || context.interruption.signal.aborted) throw error;
  process.stderr.write(
    `drainpipe: the worker cannot store ${input.source.path === "-" ? "standard input" : `"${input.source.path}"`} ` +
      `in one request (${error.body.detail}); ` +
      "sending it as an upload session instead\n",
  );
  const source =
    again === undefined
      ? await openFileStream(input.source.path)
      : { ...input.source, size: undefined, stream: again() };
  return sendSession(context, source, input.name);
}
