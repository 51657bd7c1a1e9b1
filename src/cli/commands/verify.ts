/**
 * `drainpipe verify <name> <file>`: streams a stored file and a local one side by side and compares them
 * byte for byte; exits 1 at the first difference, naming its byte offset and line.
 *
 * @module
 */
import type { Command } from "commander";
import type { Manifest } from "../../files/manifest.ts";
import { EXIT_FAILURE } from "../cli-error.ts";
import { firstDifference, type StreamDifference } from "../compare-streams.ts";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { formatCount, formatSeconds, plural, roundSeconds, secondsSince } from "../format.ts";
import { type FileStream, openFileStream } from "../local-file.ts";
import { printJson, printLines } from "../output.ts";
import { addProgressOptions, countBytes, progressEnabled, startProgress } from "../progress.ts";
import type { FileContent, WorkerClient } from "../worker-client.ts";

/** Where and how the local file and the stored content first differ, in the words the text output uses. */
export interface VerifyDifference {
  /** 0-based byte offset of the first differing byte (where the shorter side ends, when one is a prefix). */
  offset: number;
  /** 1-based line of that byte. */
  line: number;
  /** 1-based column, in bytes, of that byte. */
  column: number;
  /** The local file's byte there (`"7"`, `"\n"`; `"byte 0xe9"` outside ASCII); `null` where the file ended. */
  local: string | null;
  /** The stored content's byte there, written the same way; `null` where the content ended. */
  stored: string | null;
}

/** What {@linkcode verifyFile} found. */
export interface VerifyResult {
  /** The stored file's name. */
  name: string;
  /** The local file's path. */
  file: string;
  /** Whether the two are byte for byte the same. */
  identical: boolean;
  /** The local file's size. */
  localBytes: number;
  /** The stored content's size, from the manifest. */
  storedBytes: number;
  /** The first difference, `null` when identical. */
  difference: VerifyDifference | null;
  /** Whether the uploaded input was canonical; `null` for generated files. Non-canonical input is stored normalised. */
  canonicalInput: boolean | null;
  /** Seconds it took, to the millisecond. */
  seconds: number;
}

/**
 * Compares the stored file `name` with a local file, streaming both.
 *
 * @throws {CliError} when the stored file does not exist or either side fails to read.
 *
 * @example
 * ```ts
 * import { openFileStream } from "../local-file.ts";
 * import type { WorkerClient } from "../worker-client.ts";
 * declare const client: WorkerClient;
 * const local = await openFileStream("primes.txt");
 * const { identical } = await verifyFile(client, "primes", local, { progress: false });
 * ```
 */
export async function verifyFile(
  client: WorkerClient,
  name: string,
  local: FileStream,
  options: { progress: boolean },
): Promise<VerifyResult> {
  const start = performance.now();
  let manifest: Manifest;
  let content: FileContent;
  try {
    manifest = await client.manifest(name);
    content = await client.content(name);
  } catch (error) {
    await local.stream.cancel();
    throw error;
  }
  const progress = startProgress({ label: "verify", total: local.size, unit: "bytes", enabled: options.progress });
  let difference: StreamDifference | null;
  try {
    difference = await firstDifference(
      countBytes(local.stream, (bytes) => progress.update(bytes)),
      content.body,
    );
  } finally {
    progress.stop();
  }
  return {
    name,
    file: local.path,
    identical: difference === null,
    localBytes: local.size,
    storedBytes: manifest.totals.bytes,
    difference: difference === null ? null : inWords(difference),
    canonicalInput: manifest.source.kind === "upload" ? manifest.source.canonical : null,
    seconds: roundSeconds(secondsSince(start)),
  };
}

/**
 * The outcome of a verification in words.
 *
 * @example
 * ```ts
 * declare const result: VerifyResult;
 * describeVerification(result);
 * // ['"primes.txt" and stored "primes" are identical: 8,245,905 bytes compared in 310ms']
 * ```
 */
export function describeVerification(result: VerifyResult): string[] {
  const { difference, file, name } = result;
  if (difference === null) {
    return [
      `"${file}" and stored "${name}" are identical: ` +
        `${plural(result.localBytes, "byte")} compared in ${formatSeconds(result.seconds)}`,
    ];
  }
  const position = `line ${formatCount(difference.line)}, column ${formatCount(difference.column)}`;
  const where = `at byte offset ${formatCount(difference.offset)} (${position})`;
  const lines = [`"${file}" differs from stored "${name}" ${where}: ${describeBytes(result, difference)}`];
  if (result.canonicalInput === false) {
    lines.push(
      `  note: "${name}" was uploaded from non-canonical text, which the worker stores normalised (see its manifest)`,
    );
  }
  return lines;
}

function describeBytes(result: VerifyResult, difference: VerifyDifference): string {
  if (difference.local === null) {
    return (
      `the local file ends there (${plural(result.localBytes, "byte")}), ` +
      `the stored content goes on (${plural(result.storedBytes, "byte")})`
    );
  }
  if (difference.stored === null) {
    return (
      `the stored content ends there (${plural(result.storedBytes, "byte")}), ` +
      `the local file goes on (${plural(result.localBytes, "byte")})`
    );
  }
  return `the local file has ${quoted(difference.local)}, the stored content has ${quoted(difference.stored)}`;
}

/**
 * A {@linkcode StreamDifference} (`expected` the local byte, `actual` the stored one) as a
 * {@linkcode VerifyDifference}.
 */
function inWords(difference: StreamDifference): VerifyDifference {
  const { offset, line, column } = difference;
  return { offset, line, column, local: byteText(difference.expected), stored: byteText(difference.actual) };
}

/** A byte as text: its character in ASCII, else `byte 0x..`; `null` for no byte. */
function byteText(byte: number | undefined): string | null {
  if (byte === undefined) return null;
  return byte < 0x80 ? String.fromCharCode(byte) : `byte 0x${byte.toString(16).padStart(2, "0")}`;
}

/** A character in quotes with escapes (`"7"`, `"\n"`), a `byte 0x..` as it is. */
function quoted(text: string): string {
  return text.length === 1 ? JSON.stringify(text) : text;
}

/** Registers `verify` on `program`. */
export function registerVerify(program: Command): void {
  addConnectionOptions(
    addProgressOptions(
      program
        .command("verify")
        .description("compare a stored file with a local file byte for byte; exit 1 at the first difference")
        .argument("<name>", "the stored file's name")
        .argument("<file>", "the local file to compare with")
        .option("--json", "print the result as JSON"),
    ),
  ).action(async (name: string, file: string, options: ConnectionOptions & { json?: boolean; progress?: boolean }) => {
    const local = await openFileStream(file);
    const result = await withConnection(options, (client) =>
      verifyFile(client, name, local, { progress: progressEnabled(options.progress) }),
    );
    if (options.json) printJson(result);
    else printLines(describeVerification(result));
    if (!result.identical) process.exitCode = EXIT_FAILURE;
  });
}
