/**
 * `drainpipe get <name> [-o file]`: the reassembled content of a stored file, streamed to a file or stdout.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { formatByteRate, formatBytes, formatSeconds, roundSeconds, secondsSince } from "../format.ts";
import { writeStream } from "../local-file.ts";
import { printJson, printLines } from "../output.ts";
import { addProgressOptions, countBytes, progressEnabled, startProgress } from "../progress.ts";
import type { WorkerClient } from "../worker-client.ts";

/** What {@linkcode downloadFile} wrote. */
export interface DownloadResult {
  /** The stored file's name. */
  name: string;
  /** The file written, or `null` for stdout. */
  output: string | null;
  /** Bytes written. */
  bytes: number;
  /** Seconds it took, to the millisecond. */
  seconds: number;
}

/**
 * Streams the content of the stored file `name` to `output` (stdout when undefined).
 *
 * @throws {CliError} when the file does not exist, the worker fails, or `output` cannot be written (an
 * incomplete output file is removed).
 *
 * @example
 * ```ts
 * import type { WorkerClient } from "../worker-client.ts";
 * declare const client: WorkerClient;
 * await downloadFile(client, "primes", "copy.txt", { progress: false });
 * ```
 */
export async function downloadFile(
  client: WorkerClient,
  name: string,
  output: string | undefined,
  options: { progress: boolean },
): Promise<DownloadResult> {
  const start = performance.now();
  const content = await client.content(name);
  const progress = startProgress({
    label: "get",
    total: content.size ?? 0,
    unit: "bytes",
    enabled: options.progress && content.size !== undefined,
  });
  let bytes = 0;
  try {
    await writeStream(
      countBytes(content.body, (count) => {
        bytes = count;
        progress.update(count);
      }),
      output,
    );
  } finally {
    progress.stop();
  }
  return { name, output: output ?? null, bytes, seconds: roundSeconds(secondsSince(start)) };
}

/** Registers `get` on `program`. */
export function registerGet(program: Command): void {
  addConnectionOptions(
    addProgressOptions(
      program
        .command("get")
        .description("write a stored file's reassembled content to a file or stdout")
        .argument("<name>", "the stored file's name")
        .option("-o, --output <file>", "write to this file instead of stdout")
        .option("--json", "print a summary as JSON (on stderr when the content goes to stdout)"),
    ),
  ).action(
    async (name: string, options: ConnectionOptions & { output?: string; json?: boolean; progress?: boolean }) => {
      const result = await withConnection(options, (client) =>
        downloadFile(client, name, options.output, { progress: progressEnabled(options.progress) }),
      );
      const stream = options.output === undefined ? process.stderr : process.stdout;
      if (options.json) printJson(result, stream);
      else if (options.output !== undefined) {
        printLines([
          `wrote "${name}" (${formatBytes(result.bytes)}) to ${options.output} ` +
            `in ${formatSeconds(result.seconds)}: ${formatByteRate(result.bytes, result.seconds)}`,
        ]);
      }
    },
  );
}
