/**
 * `drainpipe upload <file>`: streams a local file to the worker, with a progress bar, and prints the
 * manifest summary and the throughput.
 *
 * @module
 */
import { basename } from "node:path";
import type { Command } from "commander";
import { assertValidName, InvalidNameError } from "../../files/file-name.ts";
import type { Manifest } from "../../files/manifest.ts";
import { MAX_MAX_PART_BYTES, MIN_MAX_PART_BYTES } from "../../split/part-size.ts";
import { argumentParser } from "../argument-parser.ts";
import { badLineError } from "../bad-line.ts";
import { CliError, EXIT_FAILURE, EXIT_INTERRUPTED, UsageError } from "../cli-error.ts";
import { addConnectionOptions, type ConnectionOptions, connectionWords, withConnection } from "../connection.ts";
import { defaultName } from "../default-name.ts";
import {
  formatByteRate,
  formatBytes,
  formatCount,
  formatCountRate,
  formatSeconds,
  MIN_SECONDS,
  plural,
  roundSeconds,
  secondsSince,
} from "../format.ts";
import { type Interruption, listenForInterrupt } from "../interrupt.ts";
import { invocation, shellWord } from "../invocation.ts";
import { type InputStream, openFileStream, openInputStream } from "../local-file.ts";
import { summarizeManifest } from "../manifest-summary.ts";
import { printJson, printLines } from "../output.ts";
import { addProgressOptions, countBytes, progressEnabled, startProgress } from "../progress.ts";
import { countArgument, sizeArgument } from "../quantity.ts";
import { randomToken } from "../random-token.ts";
import { planSessionSegments } from "../segment-plan.ts";
import { type SegmentedUploadOptions, uploadInSegments, uploadStreamInSegments } from "../segmented-upload.ts";
import { readHead } from "../stream-head.ts";
import type { WorkerClient } from "../worker-client.ts";
import { WorkerError } from "../worker-error.ts";

/** Options of {@linkcode uploadFile}. */
export interface UploadFileOptions {
  /** The name to store the file under (`upload` defaults it to {@linkcode defaultName} of the path). */
  name: string;
  /** The part size limit; the worker's default when absent. */
  maxPartBytes?: number | undefined;
  /** Whether to draw a progress bar on stderr. */
  progress: boolean;
  /** A token naming this attempt to the worker (see `WorkerClient.uploads`). */
  attempt?: string | undefined;
  /** Aborts the upload. */
  signal?: AbortSignal | undefined;
  /** Called once the whole file has been handed to the request: what is left is the worker's answer. */
  onAllSent?: (() => void) | undefined;
}

/** What {@linkcode uploadFile} did. */
export interface UploadResult {
  /** The local file's path. */
  file: string;
  /** The worker's manifest of the stored file. */
  manifest: Manifest;
  /** Bytes sent. */
  bytes: number;
  /** Seconds from the request's start to the manifest's arrival, to the millisecond. */
  seconds: number;
  /** Bytes sent per second, rounded. */
  bytesPerSecond: number;
  /** Numbers stored per second, rounded. */
  numbersPerSecond: number;
}

/**
 * Streams a local file (or standard input, chunked) to the worker as it is read (never holding it whole) and
 * returns the manifest and throughput.
 *
 * @throws {CliError} when the file cannot be read or the worker refuses it (a {@linkcode WorkerError} with
 * the line and column of bad input).
 *
 * @example
 * ```ts
 * import { openFileStream } from "../local-file.ts";
 * import type { WorkerClient } from "../worker-client.ts";
 * declare const client: WorkerClient;
 * const { manifest } = await uploadFile(client, await openFileStream("primes.txt"), {
 *   name: "primes",
 *   progress: false,
 * });
 * ```
 */
export async function uploadFile(
  client: WorkerClient,
  source: InputStream,
  options: UploadFileOptions,
): Promise<UploadResult> {
  const { path, stream, size } = source;
  const { name } = options;
  const progress = startProgress({ label: "upload", total: size, unit: "bytes", enabled: options.progress });
  const start = performance.now();
  let manifest: Manifest;
  let sent = 0;
  try {
    const body = countBytes(stream, (bytes) => {
      sent = bytes;
      progress.update(bytes);
      if (bytes === size) options.onAllSent?.();
    });
    manifest = await client.upload(name, body, {
      size,
      maxPartBytes: options.maxPartBytes,
      attempt: options.attempt,
      signal: options.signal,
    });
  } catch (error) {
    throw badLineError(error, path) ?? error;
  } finally {
    progress.stop();
  }
  return uploadResult(path, manifest, sent, start);
}

/** What an upload of `bytes` did since `start`: seconds to the millisecond, rates rounded. */
function uploadResult(file: string, manifest: Manifest, bytes: number, start: number): UploadResult {
  const seconds = Math.max(secondsSince(start), MIN_SECONDS);
  return {
    file,
    manifest,
    bytes,
    seconds: roundSeconds(seconds),
    bytesPerSecond: Math.round(bytes / seconds),
    numbersPerSecond: Math.round(manifest.totals.numbers / seconds),
  };
}

/**
 * The throughput line of an upload.
 *
 * @example
 * ```ts
 * declare const result: UploadResult;
 * describeThroughput(result); // "sent 8.25 MB in 810ms: 10.2 MB/s, 1,234,568 numbers/s"
 * ```
 */
export function describeThroughput(result: UploadResult & { segments?: number; sentSegments?: number }): string {
  const { bytes, seconds, manifest } = result;
  const numbers = formatCountRate(manifest.totals.numbers, seconds, "numbers");
  const how =
    result.segments === undefined
      ? ""
      : result.sentSegments === result.segments
        ? ` as ${plural(result.segments, "segment")}`
        : ` as ${formatCount(result.sentSegments ?? 0)} of ${plural(result.segments, "segment")} ` +
          "(the others were there)";
  return `sent ${formatBytes(bytes)}${how} in ${formatSeconds(seconds)}: ${formatByteRate(bytes, seconds)}, ${numbers}`;
}

/** How long a cancelled upload waits for the worker to remove what the attempt wrote. */
const CANCEL_WAIT_MS = 10_000;
/** How often it asks. */
const CANCEL_POLL_MS = 200;

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

/**
 * Files larger than this go as an upload session when the worker does not say its own limit (a worker older than
 * `GET /limits`): its default `MAX_SEGMENT_BYTES`, the smallest plan's body limit less a margin.
 */
const DEFAULT_SESSION_THRESHOLD_BYTES = 95_000_000;

/** Options of the `upload` command. */
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

/** Registers `upload` on `program`. */
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
        .option("--resume <uploadId>", "resume the upload session with this id: send only what the worker lacks")
        .option("--json", "print the manifest and throughput as JSON"),
    ),
  ).action(async (files: string[], options: UploadCommandOptions, command: Command) => {
    const inputs = await openInputs(files, options);
    const interruption = listenForInterrupt(
      "drainpipe: forced exit; the worker removes what the upload wrote once its lease ends " +
        `(or run ${invocation()} sweep)`,
    );
    const results: UploadOutcome[] = [];
    try {
      await withConnection(options, async (client) => {
        const threshold = inputs.some((input) => input.session === "by-size")
          ? await sessionThreshold(client)
          : DEFAULT_SESSION_THRESHOLD_BYTES;
        for (const [index, input] of inputs.entries()) {
          const mode = sendingMode(input, threshold);
          const result = await (mode === "session"
            ? sendSession(client, input.source, input.name, command, interruption)
            : mode === "stream"
              ? sendStream(client, input, threshold, command, interruption)
              : sendWhole(client, input.source, input.name, options, interruption).catch((error: unknown) =>
                  sendOverBudgetAsSession(error, client, input, command, interruption),
                )
          ).catch(async (error: unknown) => {
            await Promise.all(inputs.slice(index + 1).map((rest) => rest.source.stream.cancel()));
            throw error;
          });
          results.push(result);
          if (!options.json) printLines([...summarizeManifest(result.manifest), describeThroughput(result)]);
        }
      });
    } finally {
      interruption.dispose();
      for (const input of inputs) input.source.release?.();
    }
    if (options.json) printJson(results.length === 1 ? results[0] : { uploads: results });
  });
}

/** What an upload did, one POST or a session. */
type UploadOutcome = UploadResult & { segments?: number; sentSegments?: number; uploadId?: string };

/**
 * An input of `upload`, opened and named, and how it is sent: as an upload session because the command line asked
 * for one (`asked`: `--segment-bytes` or `--resume`), or as one if it is larger than the worker's limit (`by-size`:
 * a regular file by its size, a stream of unknown size once more than the limit has arrived).
 */
interface PlannedInput {
  source: InputStream;
  name: string;
  session: "asked" | "by-size";
}

/**
 * How `input` goes: `whole` as one POST, `session` as an upload session (asked for, or a regular file larger than
 * `threshold`), `stream` as either, decided once more than `threshold` bytes have arrived or the stream has ended.
 */
function sendingMode(input: PlannedInput, threshold: number): "whole" | "session" | "stream" {
  const { size } = input.source;
  if (input.session === "asked") return "session";
  if (size === undefined) return "stream";
  return size > threshold ? "session" : "whole";
}

/**
 * The size over which a file goes as an upload session: the worker's `maxSegmentBytes` (`GET /limits`, so a Free-plan
 * worker's `MAX_SEGMENT_BYTES` sizes every request), or {@linkcode DEFAULT_SESSION_THRESHOLD_BYTES} from a worker
 * older than that route.
 */
async function sessionThreshold(client: WorkerClient): Promise<number> {
  return (await client.limits())?.maxSegmentBytes ?? DEFAULT_SESSION_THRESHOLD_BYTES;
}

/**
 * Opens and names every input before the worker starts, so that a missing file, a clash of names or a segment
 * plan a session cannot hold is refused at once; says when a default name differs from the file's base name.
 */
async function openInputs(files: readonly string[], options: UploadCommandOptions): Promise<PlannedInput[]> {
  if (files.length > 1 && (options.name !== undefined || options.resume !== undefined)) {
    throw new UsageError("Cannot use --name or --resume with several files: upload them one at a time");
  }
  if (files.includes("-") && options.name === undefined) {
    throw new UsageError('Cannot upload standard input ("-") without a name: pass one with --name');
  }
  const names = files.map((file) => options.name ?? defaultName(file));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  if (clash !== undefined) throw new UsageError(`Cannot store two of these files as "${clash}": upload them apart`);
  const inputs: PlannedInput[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const name = names[index]!;
      if (options.name === undefined && name !== basename(file)) {
        process.stderr.write(
          `drainpipe: storing "${basename(file)}" as "${name}" (names take only A–Z a–z 0–9 . _ -; ` +
            "choose one with --name)\n",
        );
      }
      const source = await openInputStream(file);
      const { size } = source;
      const askedForSession = options.segmentBytes !== undefined || options.resume !== undefined;
      inputs.push({ source, name, session: askedForSession ? "asked" : "by-size" });
      if (options.segmentBytes !== undefined && size !== undefined) {
        // Known before the first byte, and before the worker starts: a plan a session cannot hold is refused now.
        await planSessionSegments({ path: file, size }, options.segmentBytes);
      }
    }
  } catch (error) {
    await Promise.all(inputs.map((input) => input.source.stream.cancel()));
    throw error;
  }
  return inputs;
}

/** What a Ctrl-C prints once the whole file is sent: the upload goes on to its end. */
const FINISHING =
  "drainpipe: the whole file is sent; letting the worker finish storing it (Ctrl-C again to exit at once)";

/** One `POST` of the whole file; on Ctrl-C, waits for the worker to remove the attempt. */
async function sendWhole(
  client: WorkerClient,
  source: InputStream,
  name: string,
  options: UploadCommandOptions,
  interruption: Interruption,
): Promise<UploadResult> {
  const { signal } = interruption;
  const attempt = randomToken().slice(0, 16);
  try {
    return await uploadFile(client, source, {
      name,
      maxPartBytes: options.maxPartBytes,
      progress: progressEnabled(options.progress),
      attempt,
      signal,
      onAllSent: () => interruption.finishing(FINISHING),
    });
  } catch (error) {
    if (!signal.aborted) throw error;
    throw await cancelledUpload(client, name, attempt, error);
  }
}

/**
 * Sends an input again as an upload session when its single POST was refused up front as over the worker's budget
 * (`422 over-budget`: too many parts for one request on the worker's plan), in segments of the size the session
 * answers: a regular file opened anew, a stream that ended within the limit from the bytes held (`again`);
 * rethrows any other error.
 */
async function sendOverBudgetAsSession(
  error: unknown,
  client: WorkerClient,
  input: PlannedInput,
  command: Command,
  interruption: Interruption,
  again: (() => ReadableStream<Uint8Array>) | undefined = undefined,
): Promise<UploadOutcome> {
  const overBudget = error instanceof WorkerError && error.body.error === "over-budget";
  const resendable = input.source.size !== undefined || again !== undefined;
  if (!overBudget || !resendable || interruption.signal.aborted) throw error;
  process.stderr.write(
    `drainpipe: the worker cannot store ${input.source.path === "-" ? "standard input" : `"${input.source.path}"`} ` +
      `in one request (${error.body.detail}); ` +
      "sending it as an upload session instead\n",
  );
  const source =
    again === undefined
      ? await openFileStream(input.source.path)
      : { ...input.source, size: undefined, stream: again() };
  return sendSession(client, source, input.name, command, interruption);
}

/**
 * A stream of unknown size (standard input, a pipe): read until more than `threshold` bytes have arrived; one POST
 * of what arrived when it ended by then, else an upload session over the whole stream.
 */
async function sendStream(
  client: WorkerClient,
  input: PlannedInput,
  threshold: number,
  command: Command,
  interruption: Interruption,
): Promise<UploadOutcome> {
  const { signal } = interruption;
  const head = await readHead(input.source.stream, threshold, signal).catch((error: unknown) => {
    if (!signal.aborted) throw error;
    throw new CliError(`upload of "${input.name}" cancelled before anything was sent`, {
      exitCode: EXIT_INTERRUPTED,
      code: "interrupted",
      cause: error,
    });
  });
  const source = { ...input.source, stream: head.stream };
  if (!head.ended) return sendSession(client, source, input.name, command, interruption);
  const options = command.opts<UploadCommandOptions>();
  return sendWhole(client, { ...source, size: head.bytes }, input.name, options, interruption).catch((error: unknown) =>
    sendOverBudgetAsSession(error, client, input, command, interruption, head.again),
  );
}

/**
 * An upload session: of a regular file by ranges (re-read as needed), of a stream of unknown size as it is read;
 * on Ctrl-C or a failure, aborts it, or keeps it and tells how to resume.
 */
async function sendSession(
  client: WorkerClient,
  source: InputStream,
  name: string,
  command: Command,
  interruption: Interruption,
): Promise<UploadResult & { segments: number; sentSegments: number; uploadId: string }> {
  const options = command.opts<UploadCommandOptions>();
  const file = source.path;
  const { signal } = interruption;
  const { size } = source;
  if (size !== undefined) await source.stream.cancel();
  const start = performance.now();
  let session: { uploadId: string; segmentBytes: number } | undefined;
  try {
    const segmentOptions: SegmentedUploadOptions = {
      name,
      maxPartBytes: options.maxPartBytes,
      segmentBytes: options.segmentBytes,
      parallel: options.parallel,
      progress: progressEnabled(options.progress),
      resume: options.resume,
      signal,
      onAllSent: () => interruption.finishing(FINISHING),
      onSession: (uploadId, segmentBytes) => {
        session = { uploadId, segmentBytes };
        process.stderr.write(
          `drainpipe: upload session ${uploadId} (segments of about ${formatBytes(segmentBytes)}); if this run ` +
            `dies, resume it with:\n  ${resumeCommand(file, name, session, command)}\n`,
        );
      },
    };
    const done =
      size === undefined
        ? await uploadStreamInSegments(client, { path: file, stream: source.stream }, segmentOptions)
        : await uploadInSegments(client, { path: file, size }, segmentOptions);
    return {
      ...uploadResult(file, done.manifest, done.bytes, start),
      segments: done.segments,
      sentSegments: done.sentSegments,
      uploadId: done.uploadId,
    };
  } catch (error) {
    if (session === undefined) throw error;
    const failure = error instanceof CliError ? error : undefined;
    const exitCode = signal.aborted ? EXIT_INTERRUPTED : (failure?.exitCode ?? EXIT_FAILURE);
    const reason = signal.aborted ? "cancelled" : error instanceof Error ? error.message : String(error);
    const facts = {
      exitCode,
      code: signal.aborted ? "interrupted" : (failure?.code ?? "failed"),
      cause: error,
    };
    const details = { ...failure?.details, uploadId: session.uploadId };
    if (options.keepSession) {
      const resume = resumeCommand(file, name, session, command);
      throw new CliError(`${reason}\nthe upload session is kept; resume it with:\n  ${resume}`, {
        ...facts,
        details: { ...details, sessionKept: true, resume },
      });
    }
    const removed = await client.abortSession(name, session.uploadId).then(
      () => true,
      () => false,
    );
    const aborted = removed ? "the worker removed the upload session" : "the upload session goes when it expires";
    throw new CliError(`${reason}\n${aborted} (${session.uploadId})`, {
      ...facts,
      details: { ...details, sessionKept: false, sessionRemoved: removed },
    });
  }
}

/**
 * The command that resumes the session: this run's command name, the file, `--name`, `--resume` and
 * `--segment-bytes`, and the `--url` or `--state-dir` this run was given (never the token: `--token` stays a
 * placeholder when it was given on the command line rather than in `DRAINPIPE_TOKEN`).
 */
function resumeCommand(
  file: string,
  name: string,
  session: { uploadId: string; segmentBytes: number },
  command: Command,
): string {
  const words = [
    invocation(),
    "upload",
    shellWord(file),
    "--name",
    name,
    "--resume",
    session.uploadId,
    "--segment-bytes",
    String(session.segmentBytes),
  ];
  return [...words, ...connectionWords(command)].join(" ");
}
