/**
 * `drainpipe upload <files...>`: the command line of `upload`, read into plain {@linkcode UploadSettings} for
 * {@linkcode uploadFiles}, which streams each file to the worker with a progress bar and prints the manifest summary
 * and the throughput.
 *
 * @module
 */
import type { Command } from "commander";
import { assertValidName, InvalidNameError } from "../../files/file-name.ts";
import { MAX_MAX_PART_BYTES, MIN_MAX_PART_BYTES } from "../../split/part-size.ts";
import { argumentParser } from "../argument-parser.ts";
import { addConnectionOptions, type ConnectionOptions, connectionWords } from "../connection.ts";
import { addProgressOptions, progressEnabled } from "../progress.ts";
import { countArgument, sizeArgument } from "../quantity.ts";
import { uploadFiles } from "../upload/upload-files.ts";
import type { UploadSettings } from "../upload/upload-settings.ts";

/** Options of the `upload` command, as commander parses them. */
interface UploadCommandOptions extends ConnectionOptions {
  name?: string;
  maxPartBytes?: number;
  segmentBytes?: number;
  parallel: number;
  keepSession?: boolean;
  resume?: string;
  json?: boolean;
  progress?: boolean;
}

/**
 * Registers `upload` on `program`.
 *
 * @example
 * ```ts
 * import { Command } from "commander";
 * registerUpload(new Command("drainpipe"));
 * ```
 */
export function registerUpload(program: Command): void {
  addConnectionOptions(
    addProgressOptions(
      program
        .command("upload")
        .description("stream a newline-separated numbers file to the worker and print its manifest")
        .argument("<files...>", 'the files to upload ("-" for standard input, with --name)')
        .option(
          "--name <name>",
          "store it under this name (default: the file's base name, sanitised)",
          argumentParser(assertValidName, InvalidNameError),
        )
        .option(
          "--max-part-bytes <bytes>",
          "size limit of each stored part (1024 to 1073741824; default: the worker's)",
          sizeArgument("--max-part-bytes", MIN_MAX_PART_BYTES, MAX_MAX_PART_BYTES),
        )
        .option(
          "--segment-bytes <bytes>",
          "send the file as an upload session cut into segments of about this size (default: only files over " +
            "the worker's segment limit, MAX_SEGMENT_BYTES, go as sessions, in segments of that limit)",
          sizeArgument("--segment-bytes", 1, 5_000_000_000),
        )
        .option("--parallel <count>", "segments sent at once", countArgument("--parallel", 1, 64), 4)
        .option("--keep-session", "on Ctrl-C or a failure, keep the session and print the command that resumes it")
        .option("--resume <sessionId>", "resume the upload session with this id: send only what the worker lacks")
        .option("--json", "print the manifest and throughput as JSON"),
    ),
  ).action((files: string[], options: UploadCommandOptions, command: Command) =>
    uploadFiles(files, uploadSettings(options, command)),
  );
}

/** The parsed `options` of `command` as plain settings: progress decided, connection words taken off the command. */
function uploadSettings(options: UploadCommandOptions, command: Command): UploadSettings {
  return {
    connection: { url: options.url, token: options.token, stateDir: options.stateDir },
    name: options.name,
    maxPartBytes: options.maxPartBytes,
    segmentBytes: options.segmentBytes,
    parallel: options.parallel,
    keepSession: options.keepSession === true,
    resume: options.resume,
    json: options.json === true,
    progress: progressEnabled(options.progress),
    connectionWords: connectionWords(command),
  };
}
