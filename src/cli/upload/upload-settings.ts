/**
 * What the `upload` command was asked to do, as plain values: its command line read once by the command's adapter
 * (`commands/upload.ts`), so that nothing past it needs commander.
 *
 * @module
 */
import type { ConnectionOptions } from "../connection.ts";

/** The `upload` command's options, read from its command line. */
export interface UploadSettings {
  /** Which worker to talk to (`--url`, `--token`, `--state-dir`). */
  connection: ConnectionOptions;
  /** The name to store the (one) file under (`--name`); each file's default name when absent. */
  name: string | undefined;
  /** The part size limit (`--max-part-bytes`); the worker's default when absent. */
  maxPartBytes: number | undefined;
  /** The segment size asked for (`--segment-bytes`): every file then goes as an upload session. */
  segmentBytes: number | undefined;
  /** Segments sent at once (`--parallel`). */
  parallel: number;
  /** Whether a session outlives a Ctrl-C or a failure (`--keep-session`), to be resumed. */
  keepSession: boolean;
  /** The id of the upload session to resume (`--resume`). */
  resume: string | undefined;
  /** Whether to print JSON instead of lines (`--json`). */
  json: boolean;
  /** Whether to draw progress bars (`--progress`, `--no-progress`, else whether stderr is a terminal). */
  progress: boolean;
  /**
   * The connection options given on the command line, as words of a command to run again (see `connectionWords`):
   * what a printed resume command repeats.
   */
  connectionWords: readonly string[];
}
