/**
 * Local files as web streams, read and written a chunk at a time so that memory use does not depend on the
 * file's size.
 *
 * @module
 */
import { createReadStream, createWriteStream } from "node:fs";
import { open, rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { CliError } from "./cli-error.ts";

/**
 * Size of each read from a local file: 64 KiB. Small chunks keep the process's peak memory low: every chunk
 * is a fresh buffer, and many small ones let the young-generation collector free the sent ones early, where
 * fewer large ones pile up between full collections.
 */
export const READ_CHUNK_BYTES = 64 * 1024;

/** Input to upload: a regular file, or a stream whose size is known only at its end (standard input, a pipe). */
export interface InputStream {
  /** The path as given (`-` for standard input). */
  path: string;
  /** The bytes, read one chunk per pull. */
  stream: ReadableStream<Uint8Array>;
  /** The size in bytes, `undefined` for standard input, a pipe or a device. */
  size: number | undefined;
  /**
   * Lets go of standard input or a pipe however far it was read (a request cut off by Ctrl-C may never cancel its
   * body, and an open pipe keeps the process alive); absent for regular files, which close at their end.
   */
  release?: () => void;
}

/** A local regular file opened for streaming. */
export interface FileStream extends InputStream {
  /** The file's size in bytes when it was opened. */
  size: number;
}

/**
 * Opens what `upload` reads: `-` for standard input, a pipe or a character device (such as `/dev/stdin`) as a
 * stream of unknown size, anything else with {@linkcode openFileStream}.
 *
 * @throws {CliError} when the path does not exist, is a directory or cannot be read.
 *
 * @example
 * ```ts
 * const input = await openInputStream("-"); // { path: "-", size: undefined, … }
 * ```
 */
export async function openInputStream(path: string): Promise<InputStream> {
  const info =
    path === "-"
      ? undefined
      : await stat(path).catch((error: unknown) => {
          throw fileError("read", path, error);
        });
  if (info === undefined || info.isFIFO() || info.isCharacterDevice() || info.isSocket()) {
    const source = info === undefined ? process.stdin : createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
    return { path, stream: nodeStream(source, path), size: undefined, release: () => source.destroy() };
  }
  return openFileStream(path);
}

/**
 * A Node readable as a web stream of byte chunks, its read errors told as {@linkcode CliError}s naming `path`. It
 * reads through the readable's own async iterator (not `Readable.toWeb`, whose stream can throw "Controller is
 * already closed" from an event handler when cancelled while standard input still delivers data); cancelling it
 * destroys the readable.
 */
function nodeStream(source: Readable, path: string): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (error) {
          throw fileError("read", path, error);
        }
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}

/**
 * Opens `path` as a stream of {@linkcode READ_CHUNK_BYTES}-byte chunks (each a fresh buffer), read only when
 * the consumer pulls. The file is closed at its end, on cancel and on error.
 *
 * @throws {CliError} when the file does not exist, is not a regular file or cannot be read.
 *
 * @example
 * ```ts
 * declare const path: string; // a file of numbers, say "primes.txt"
 * const { stream, size } = await openFileStream(path);
 * ```
 */
export async function openFileStream(path: string): Promise<FileStream> {
  const info = await stat(path).catch((error: unknown) => {
    throw fileError("read", path, error);
  });
  if (!info.isFile()) throw new CliError(`Cannot read "${path}": it is not a regular file`, { code: "not-a-file" });
  const handle = await open(path, "r").catch((error: unknown) => {
    throw fileError("read", path, error);
  });
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const buffer = new Uint8Array(READ_CHUNK_BYTES);
          const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, null);
          if (bytesRead > 0) controller.enqueue(buffer.subarray(0, bytesRead));
          if (bytesRead === 0) {
            await handle.close();
            controller.close();
          }
        } catch (error) {
          await handle.close().catch(() => undefined);
          throw fileError("read", path, error);
        }
      },
      async cancel() {
        await handle.close();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  return { path, stream, size: info.size };
}

/**
 * Writes `stream` to the file at `path`, or to stdout when `path` is undefined. A file left incomplete by a
 * failure is removed, unless `options.keepPartial` (then it holds what arrived, for a later run to continue).
 * With `options.append`, the bytes go after what the file holds. When stdout's reader goes away
 * (`drainpipe get x | head`), writing stops quietly.
 *
 * @throws {CliError} when the file cannot be written; the stream's own error otherwise.
 *
 * @example
 * ```ts
 * import { primeTextStream } from "../numbers/prime-text-stream.ts";
 * declare const path: string; // where to write, say "primes.txt"
 * await writeStream(primeTextStream(1000), path);
 * ```
 */
export async function writeStream(
  stream: ReadableStream<Uint8Array>,
  path: string | undefined,
  options: { append?: boolean; keepPartial?: boolean } = {},
): Promise<void> {
  const source = Readable.fromWeb(stream as NodeReadableStream<Uint8Array>);
  if (path === undefined) {
    try {
      await pipeline(source, process.stdout, { end: false });
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
    }
    return;
  }
  try {
    await pipeline(source, createWriteStream(path, { flags: options.append ? "a" : "w" }));
  } catch (error) {
    if (!options.keepPartial) await rm(path, { force: true });
    if (isFileSystemError(error)) throw fileError("write", path, error);
    throw error;
  }
}

function isBrokenPipe(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "EPIPE";
}

function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "syscall" in error && "code" in error;
}

function fileError(verb: "read" | "write", path: string, error: unknown): CliError {
  const code = isFileSystemError(error) ? error.code : undefined;
  const reason =
    code === "ENOENT"
      ? verb === "read"
        ? "no such file"
        : "its directory does not exist"
      : code === "EACCES"
        ? "permission denied"
        : code === "EISDIR"
          ? "it is a directory"
          : error instanceof Error
            ? error.message
            : String(error);
  const kind = code === "ENOENT" && verb === "read" ? "no-such-file" : `cannot-${verb}`;
  return new CliError(`Cannot ${verb} "${path}": ${reason}`, { code: kind, details: { path }, cause: error });
}
