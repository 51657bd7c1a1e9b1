/**
 * `drainpipe get <name> [-o file] [--resume | --parallel N]`: the reassembled content of a stored file, streamed to
 * a file or stdout; an interrupted download to a file continued, or a file fetched several parts at a time.
 *
 * @module
 */
import { existsSync, statSync } from "node:fs";
import type { Command } from "commander";
import { EXIT_INTERRUPTED, UsageError } from "../cli-error.ts";
import { addConnectionOptions, type ConnectionOptions, connectionWords, withConnection } from "../connection.ts";
import { formatByteRate, formatBytes, formatSeconds, roundSeconds, secondsSince } from "../format.ts";
import { invocation, shellWord } from "../invocation.ts";
import { writeStream } from "../local-file.ts";
import { printJson, printLines } from "../output.ts";
import { downloadParts } from "../parallel-download.ts";
import { addProgressOptions, countBytes, type Progress, progressEnabled, startProgress } from "../progress.ts";
import { countArgument } from "../quantity.ts";
import { removeResumeRecord, resumePoint, writeResumeRecord } from "../resume-record.ts";
import type { FileContent, WorkerClient } from "../worker-client.ts";

/** What {@linkcode downloadFile} wrote. */
export interface DownloadResult {
  /** The stored file's name. */
  name: string;
  /** The file written, or `null` for stdout. */
  output: string | null;
  /** The size of the content written: the whole file's, a resumed download's included. */
  bytes: number;
  /** Where this run started writing: 0, or the size of the partial file a resumed download continued. */
  resumedFrom: number;
  /** Seconds it took, to the millisecond. */
  seconds: number;
}

/** How {@linkcode downloadFile} downloads. */
export interface DownloadOptions {
  /** Whether to show progress. */
  progress: boolean;
  /**
   * Continue a partial `output` left by an interrupted download, if the stored file is still the version it holds
   * (else fetch it whole again); on failure, keep what arrived for the next `resume`.
   */
  resume?: boolean;
  /** Fetch this many parts at once, each written at its offset (to a file only). */
  parallel?: number;
}

/**
 * Streams the content of the stored file `name` to `output` (stdout when undefined). While a download to a file
 * runs, the version it writes is recorded beside it (`<output>.drainpipe-resume`, see `resume-record.ts`), so a
 * killed one can be continued with `resume`.
 *
 * @throws {CliError} when the file does not exist, the worker fails, or `output` cannot be written (an
 * incomplete output file is removed, unless `resume`).
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
  options: DownloadOptions,
): Promise<DownloadResult> {
  const start = performance.now();
  const result = (bytes: number, resumedFrom: number): DownloadResult => ({
    name,
    output: output ?? null,
    bytes,
    resumedFrom,
    seconds: roundSeconds(secondsSince(start)),
  });
  if (options.parallel !== undefined && output !== undefined) {
    let progress: Progress | undefined;
    try {
      const bytes = await downloadParts(client, name, output, {
        parallel: options.parallel,
        onSize: (total) => {
          progress = startProgress({ label: "get", total, unit: "bytes", enabled: options.progress });
        },
        onBytes: (count) => progress?.update(count),
      });
      return result(bytes, 0);
    } finally {
      progress?.stop();
    }
  }
  const point = options.resume && output !== undefined ? await resumePoint(name, output) : null;
  let content: FileContent;
  if (point === null) content = await client.content(name);
  else {
    const rest = await client.contentFrom(name, point.offset, point.etag);
    if (rest === null) {
      await removeResumeRecord(output!);
      return result(point.offset, point.offset);
    }
    content = rest;
  }
  if (output !== undefined && content.etag !== undefined) {
    await writeResumeRecord(output, { name, etag: content.etag });
  }
  const progress = startProgress({
    label: "get",
    total: content.offset + (content.size ?? 0),
    unit: "bytes",
    enabled: options.progress && content.size !== undefined,
  });
  let bytes = 0;
  try {
    await writeStream(
      countBytes(content.body, (count) => {
        bytes = count;
        progress.update(content.offset + count);
      }),
      output,
      { append: content.offset > 0, keepPartial: options.resume === true },
    );
  } catch (error) {
    if (output !== undefined && !options.resume) await removeResumeRecord(output);
    throw error;
  } finally {
    progress.stop();
  }
  if (output !== undefined) await removeResumeRecord(output);
  return result(content.offset + bytes, content.offset);
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
        .option(
          "--resume",
          "continue an interrupted download to the -o file where it stopped (the whole file again if it was " +
            "replaced meanwhile); on a failure, keep what arrived",
        )
        .option(
          "--parallel <count>",
          "fetch this many parts at once into the -o file",
          countArgument("--parallel", 1, 64),
        )
        .option("--json", "print a summary as JSON (on stderr when the content goes to stdout)"),
    ),
  ).action(
    async (
      name: string,
      options: ConnectionOptions & {
        output?: string;
        json?: boolean;
        progress?: boolean;
        resume?: boolean;
        parallel?: number;
      },
      command: Command,
    ) => {
      if ((options.resume || options.parallel !== undefined) && options.output === undefined) {
        throw new UsageError(`Cannot use ${options.resume ? "--resume" : "--parallel"} without -o: they write a file`);
      }
      if (options.resume && options.parallel !== undefined) {
        throw new UsageError("Cannot use --resume with --parallel: a parallel download is fetched whole");
      }
      const output = options.output;
      // Ctrl-C leaves the partial file and its resume record (a parallel download's cannot be continued): say so.
      const onInterrupt =
        output === undefined || options.parallel !== undefined
          ? undefined
          : () => {
              const written = existsSync(output) ? statSync(output).size : 0;
              const again = [
                invocation(),
                "get",
                name,
                "-o",
                shellWord(output),
                "--resume",
                ...connectionWords(command),
              ];
              process.stderr.write(
                `\ndrainpipe: download of "${name}" interrupted with ${formatBytes(written)} in ${output}; ` +
                  `continue it with:\n  ${again.join(" ")}\n`,
              );
              process.exit(EXIT_INTERRUPTED);
            };
      if (onInterrupt) process.once("SIGINT", onInterrupt);
      let result: DownloadResult;
      try {
        result = await withConnection(options, (client) =>
          downloadFile(client, name, output, {
            progress: progressEnabled(options.progress),
            ...(options.resume ? { resume: true } : {}),
            ...(options.parallel === undefined ? {} : { parallel: options.parallel }),
          }),
        );
      } finally {
        if (onInterrupt) process.off("SIGINT", onInterrupt);
      }
      const stream = options.output === undefined ? process.stderr : process.stdout;
      if (options.json) printJson(result, stream);
      else if (options.output !== undefined) {
        const resumed = result.resumedFrom > 0 ? `, resumed at byte ${result.resumedFrom},` : "";
        printLines([
          `wrote "${name}" (${formatBytes(result.bytes)}) to ${options.output}${resumed} ` +
            `in ${formatSeconds(result.seconds)}: ${formatByteRate(result.bytes - result.resumedFrom, result.seconds)}`,
        ]);
      }
    },
  );
}
