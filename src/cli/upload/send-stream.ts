/**
 * Sending a stream of unknown size (standard input, a pipe): one `POST` when it ends within the worker's limit,
 * else an upload session over the whole stream.
 *
 * @module
 */
import { CliError, EXIT_INTERRUPTED } from "../cli-error.ts";
import { formatBytes } from "../format.ts";
import { startProgress } from "../progress.ts";
import { readHead } from "../stream-head.ts";
import { sendOverBudgetAsSession } from "./over-budget-fallback.ts";
import type { SendContext } from "./send-context.ts";
import { sendSession } from "./send-session.ts";
import { sendWhole } from "./send-whole.ts";
import type { UploadInput } from "./upload-inputs.ts";
import type { UploadOutcome } from "./upload-result.ts";

/**
 * Reads `input` until more than `threshold` bytes have arrived (with a bar of what it holds, as progress bars are
 * shown): one POST of what arrived when it ended by then (again as a session if the worker refuses it as over its
 * budget), else an upload session over the whole stream.
 *
 * @throws {CliError} `interrupted` (exit 130) after a Ctrl-C before anything was sent; whatever the way it is sent
 * throws otherwise.
 *
 * @example
 * ```ts
 * import { openInputStream } from "../local-file.ts";
 * import type { SendContext } from "./send-context.ts";
 * declare const context: SendContext;
 * const input = { source: await openInputStream("-"), name: "primes", session: "by-size" } as const;
 * const result = await sendStream(context, input, 95_000_000);
 * ```
 */
export async function sendStream(context: SendContext, input: UploadInput, threshold: number): Promise<UploadOutcome> {
  const { signal } = context.interruption;
  const { path } = input.source;
  const what = path === "-" ? "standard input" : `"${path}"`;
  const held = startProgress({
    label: `holding ${what} until it ends or passes ${formatBytes(threshold)}:`,
    total: undefined,
    unit: "bytes",
    enabled: context.settings.progress,
  });
  const head = await readHead(input.source.stream, threshold, signal, (bytes) => held.update(bytes))
    .catch((error: unknown) => {
      if (!signal.aborted) throw error;
      throw new CliError(`upload of "${input.name}" cancelled before anything was sent`, {
        exitCode: EXIT_INTERRUPTED,
        code: "interrupted",
        cause: error,
      });
    })
    .finally(() => held.stop());
  const source = { ...input.source, stream: head.stream };
  if (!head.ended) return sendSession(context, source, input.name);
  return sendWhole(context, { ...source, size: head.bytes }, input.name).catch((error: unknown) =>
    sendOverBudgetAsSession(error, context, input, head.again),
  );
}
