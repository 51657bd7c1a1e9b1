/**
 * Sending an input as one `POST`, named by a random attempt token so that a Ctrl-C can wait until the worker
 * removed what the attempt wrote.
 *
 * @module
 */
import { CliError, EXIT_INTERRUPTED } from "../cli-error.ts";
import { invocation } from "../invocation.ts";
import type { InputStream } from "../local-file.ts";
import { randomToken } from "../random-token.ts";
import type { WorkerClient } from "../worker-client.ts";
import type { SendContext } from "./send-context.ts";
import { uploadFile } from "./upload-file.ts";
import { allSent } from "./upload-interruption.ts";
import type { UploadResult } from "./upload-result.ts";

/** How long a cancelled upload waits for the worker to remove what the attempt wrote. */
const CANCEL_WAIT_MS = 10_000;
/** How often it asks. */
const CANCEL_POLL_MS = 200;

/**
 * One `POST` of the whole of `source`, stored as `name`; on Ctrl-C, waits for the worker to remove the attempt.
 *
 * @throws {CliError} `interrupted` (exit 130) after Ctrl-C, saying whether the worker removed the partial upload;
 * whatever {@linkcode uploadFile} throws otherwise.
 *
 * @example
 * ```ts
 * import { openFileStream } from "../local-file.ts";
 * import type { SendContext } from "./send-context.ts";
 * declare const context: SendContext;
 * const result = await sendWhole(context, await openFileStream("primes.txt"), "primes");
 * ```
 */
export async function sendWhole(context: SendContext, source: InputStream, name: string): Promise<UploadResult> {
  const { client, settings, interruption } = context;
  const { signal } = interruption;
  const attempt = randomToken().slice(0, 16);
  try {
    return await uploadFile(client, source, {
      name,
      maxPartBytes: settings.maxPartBytes,
      progress: settings.progress,
      attempt,
      signal,
      onAllSent: () => allSent(interruption),
    });
  } catch (error) {
    if (!signal.aborted) throw error;
    throw await cancelledUpload(client, name, attempt, error);
  }
}

/**
 * The error that reports a cancelled upload, once the worker no longer lists the attempt (it removed what the
 * attempt wrote) or {@linkcode CANCEL_WAIT_MS} passed.
 */
async function cancelledUpload(client: WorkerClient, name: string, attempt: string, cause: unknown): Promise<CliError> {
  const deadline = Date.now() + CANCEL_WAIT_MS;
  while (Date.now() < deadline) {
    const inFlight = await client.uploads(name).catch(() => undefined);
    if (inFlight !== undefined && !inFlight.some((upload) => upload.attempt === attempt)) {
      return new CliError(`upload of "${name}" cancelled; the worker removed the partial upload`, {
        exitCode: EXIT_INTERRUPTED,
        code: "interrupted",
        details: { removed: true },
        cause,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, CANCEL_POLL_MS));
  }
  return new CliError(
    `upload of "${name}" cancelled; the worker had not removed the partial upload after ${CANCEL_WAIT_MS / 1000} s: ` +
      `it goes when its lease ends (or run ${invocation()} sweep)`,
    { exitCode: EXIT_INTERRUPTED, code: "interrupted", details: { removed: false }, cause },
  );
}
