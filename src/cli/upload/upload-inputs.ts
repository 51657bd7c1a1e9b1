/**
 * The inputs of `upload`, opened and named before the worker starts, so that a missing file, a clash of names or a
 * segment size a session cannot hold is refused at once.
 *
 * @module
 */
import { basename } from "node:path";
import { UsageError } from "../cli-error.ts";
import { defaultName } from "../default-name.ts";
import { type InputStream, openInputStream } from "../local-file.ts";
import { sessionSegments } from "../session-segments.ts";
import type { UploadSettings } from "./upload-settings.ts";

/**
 * An input of `upload`, opened and named, and how it is sent: as an upload session because the command line asked
 * for one (`asked`: `--segment-bytes` or `--resume`), or as one if it is larger than the worker's limit (`by-size`:
 * a regular file by its size, a stream of unknown size once more than the limit has arrived).
 */
export interface UploadInput {
  /** The opened file or stream. */
  source: InputStream;
  /** The name to store it under. */
  name: string;
  /** Why it would go as an upload session. */
  session: "asked" | "by-size";
}

/**
 * Opens and names every file of `files` (`-` is standard input); says on stderr when a default name differs from the
 * file's base name. On any failure, what it opened is cancelled.
 *
 * @throws {UsageError} for `--name` or `--resume` with several files, standard input without `--name`, two files of
 * one name, or a `--segment-bytes` that cuts a file into more segments than a session holds.
 * @throws {CliError} when a file cannot be opened.
 *
 * @example
 * ```ts
 * import type { UploadSettings } from "./upload-settings.ts";
 * declare const settings: UploadSettings;
 * const [input] = await openInputs(["primes.txt"], settings);
 * input?.name; // "primes.txt"
 * ```
 */
export async function openInputs(files: readonly string[], settings: UploadSettings): Promise<UploadInput[]> {
  if (files.length > 1 && (settings.name !== undefined || settings.resume !== undefined)) {
    throw new UsageError("Cannot use --name or --resume with several files: upload them one at a time");
  }
  if (files.includes("-") && settings.name === undefined) {
    throw new UsageError('Cannot upload standard input ("-") without a name: pass one with --name');
  }
  const names = files.map((file) => settings.name ?? defaultName(file));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  if (clash !== undefined) throw new UsageError(`Cannot store two of these files as "${clash}": upload them apart`);
  const inputs: UploadInput[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const name = names[index]!;
      if (settings.name === undefined && name !== basename(file)) {
        process.stderr.write(
          `drainpipe: storing "${basename(file)}" as "${name}" (names take only A–Z a–z 0–9 . _ -; ` +
            "choose one with --name)\n",
        );
      }
      const source = await openInputStream(file);
      const { size } = source;
      const askedForSession = settings.segmentBytes !== undefined || settings.resume !== undefined;
      inputs.push({ source, name, session: askedForSession ? "asked" : "by-size" });
      if (settings.segmentBytes !== undefined && size !== undefined) {
        // Known before the first byte, and before the worker starts: a plan a session cannot hold is refused now.
        await sessionSegments({ path: file, size }, settings.segmentBytes);
      }
    }
  } catch (error) {
    await Promise.all(inputs.map((input) => input.source.stream.cancel()));
    throw error;
  }
  return inputs;
}
