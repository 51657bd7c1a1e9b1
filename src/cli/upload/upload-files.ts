/**
 * The `upload` command's work, once its command line is read: every file opened and named, then sent one after the
 * other in one connection to the worker, each the way it should go, with the manifest's summary and the throughput
 * printed after each (or all results as JSON at the end).
 *
 * @module
 */
import { withConnection } from "../connection.ts";
import { summarizeManifest } from "../manifest-summary.ts";
import { printJson, printLines } from "../output.ts";
import { DEFAULT_SESSION_THRESHOLD_BYTES, sendInput, sessionThreshold } from "./send-input.ts";
import { openInputs } from "./upload-inputs.ts";
import { listenForUploadInterrupt } from "./upload-interruption.ts";
import { describeThroughput, type UploadOutcome } from "./upload-result.ts";
import type { UploadSettings } from "./upload-settings.ts";

/**
 * Uploads `files` (`-` is standard input) as `settings` say. When one fails, the files after it are not sent.
 *
 * @throws {UsageError} for inputs the command line cannot combine (see {@linkcode openInputs}).
 * @throws {CliError} for the first upload that fails (`interrupted`, exit 130, after Ctrl-C).
 *
 * @example
 * ```ts
 * import type { UploadSettings } from "./upload-settings.ts";
 * declare const settings: UploadSettings;
 * await uploadFiles(["primes.txt", "squares.txt"], settings);
 * ```
 */
export async function uploadFiles(files: readonly string[], settings: UploadSettings): Promise<void> {
  const inputs = await openInputs(files, settings);
  const interruption = listenForUploadInterrupt();
  const results: UploadOutcome[] = [];
  try {
    await withConnection(settings.connection, async (client) => {
      const threshold = inputs.some((input) => input.session === "by-size")
        ? await sessionThreshold(client)
        : DEFAULT_SESSION_THRESHOLD_BYTES;
      for (const [index, input] of inputs.entries()) {
        const result = await sendInput({ client, settings, interruption }, input, threshold).catch(
          async (error: unknown) => {
            await Promise.all(inputs.slice(index + 1).map((rest) => rest.source.stream.cancel()));
            throw error;
          },
        );
        results.push(result);
        if (!settings.json) printLines([...summarizeManifest(result.manifest), describeThroughput(result)]);
      }
    });
  } finally {
    interruption.dispose();
    for (const input of inputs) input.source.release?.();
  }
  if (settings.json) printJson(results.length === 1 ? results[0] : { uploads: results });
}
