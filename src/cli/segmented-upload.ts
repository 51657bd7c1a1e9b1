/**
 * An upload of any size as a session: the file cut at line breaks into segments under the worker's body limit,
 * sent `parallel` at a time with their `Content-Digest`, retried on passing failures, then completed into one
 * version. A session can be resumed: only segments the worker lacks (or holds with another digest) are sent.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Manifest } from "../files/manifest.ts";
import type { SegmentReceipt, SessionDescription, SessionWithSegments } from "../http-contract/bodies.ts";
import { badLineError, isBadLine } from "./bad-line.ts";
import { CliError } from "./cli-error.ts";
import { countLineBreaks, digestOfRange, type FileRange, readRange } from "./file-range.ts";
import { cutSegments, type HeldSegment } from "./held-segments.ts";
import { READ_CHUNK_BYTES } from "./local-file.ts";
import { countBytes, startProgress } from "./progress.ts";
import { withRetries } from "./retry.ts";
import { MAX_SEGMENTS, sessionSegments, tooManySegmentsError } from "./session-segments.ts";
import type { WorkerClient } from "./worker-client.ts";

/** Room left under the worker's segment limit for the line that ends a segment past its multiple. */
const SEGMENT_MARGIN_BYTES = 64 * 1024;

/** Options of {@linkcode uploadInSegments}. */
export interface SegmentedUploadOptions {
  /** The name to store the file under. */
  name: string;
  /** The part size limit; the worker's default when absent. */
  maxPartBytes?: number | undefined;
  /** Segment size asked for; the worker's limit (less a margin) when absent or larger. */
  segmentBytes?: number | undefined;
  /** Segments sent at once. */
  parallel: number;
  /** Whether to draw a progress bar on stderr. */
  progress: boolean;
  /** The id of a session to resume instead of opening one. */
  resume?: string | undefined;
  /** Aborts the upload (the session stays; the caller aborts or keeps it). */
  signal?: AbortSignal | undefined;
  /** Called once every segment is sent, before the session is completed. */
  onAllSent?: (() => void) | undefined;
  /** Called once the session is open (or found), before any segment is sent. */
  onSession?: (sessionId: string, segmentBytes: number) => void;
}

/** What {@linkcode uploadInSegments} did. */
export interface SegmentedUploadResult {
  /** The published manifest. */
  manifest: Manifest;
  /** The session's id. */
  sessionId: string;
  /** Segments the file was cut into. */
  segments: number;
  /** Segments sent by this run (fewer when resuming). */
  sentSegments: number;
  /** Bytes sent by this run. */
  bytes: number;
  /**
   * Seconds from the progress bar's start (the session open, the first segment about to go) to the manifest: the
   * time the bar's rate counts.
   */
  seconds: number;
}

/**
 * Uploads `file` as the segments of a session and completes it.
 *
 * @throws {CliError} naming the file's own line, column and byte offset when a segment holds a bad line.
 * @example
 * ```ts
 * import type { WorkerClient } from "./worker-client.ts";
 * declare const client: WorkerClient;
 * const result = await uploadInSegments(client, { path: "primes.txt", size: 1_040_000_000 }, {
 *   name: "primes",
 *   parallel: 4,
 *   progress: true,
 * });
 * result.segments; // 11
 * ```
 */
export async function uploadInSegments(
  client: WorkerClient,
  file: { path: string; size: number },
  options: SegmentedUploadOptions,
): Promise<SegmentedUploadResult> {
  const { name } = options;
  const { session, segmentBytes, received } = await openSegmentSession(client, options);
  const ranges = await sessionSegments(file, segmentBytes);
  const digests = new Map<number, string>();
  const toSend: FileRange[] = [];
  // Every segment's digest first: it goes with the segment, and when resuming it tells which segments to send.
  const hashing = startProgress({ label: "hashing", total: file.size, unit: "bytes", enabled: options.progress });
  try {
    for (const range of ranges) {
      const digest = await digestOfRange(file.path, range.start, range.end, (bytes) =>
        hashing.update(range.start + bytes),
      );
      digests.set(range.index, digest);
      if (received.get(range.index)?.digest !== digest) toSend.push(range);
    }
  } finally {
    hashing.stop();
  }
  const total = toSend.reduce((sum, range) => sum + (range.end - range.start), 0);
  const progress = startProgress({ label: "upload", total, unit: "bytes", enabled: options.progress });
  const sentBy = new Map<number, number>();
  const report = () => progress.update([...sentBy.values()].reduce((sum, bytes) => sum + bytes, 0));
  const send = (range: FileRange): Promise<SegmentReceipt> =>
    withRetries(
      () => {
        sentBy.set(range.index, 0);
        const body = countBytes(readRange(file.path, range.start, range.end), (bytes) => {
          sentBy.set(range.index, bytes);
          report();
        });
        return client.putSegment(name, session.sessionId, range.index, body, {
          size: range.end - range.start,
          digest: digests.get(range.index)!,
          signal: options.signal,
        });
      },
      { signal: options.signal },
    ).catch(async (error: unknown) => {
      if (!isBadLine(error)) throw error;
      const linesBefore = await countLineBreaks(file.path, range.start);
      throw badLineError(error, file.path, { index: range.index, offset: range.start, linesBefore }) ?? error;
    });
  let manifest: Manifest;
  let seconds: number;
  try {
    await inParallel(toSend, options.parallel, send);
    options.onAllSent?.();
    manifest = await completeSession(client, name, session.sessionId, ranges.length, options.signal);
  } finally {
    seconds = progress.stop();
  }
  const sentSegments = toSend.length;
  return { manifest, sessionId: session.sessionId, segments: ranges.length, sentSegments, bytes: total, seconds };
}

/**
 * Uploads a stream of unknown size (standard input, a pipe) as the segments of a session and completes it. The
 * stream is cut as it is read, at the boundaries a file of the same bytes gets (so a session is resumed by piping
 * the same input again); each segment is held in memory until the worker has it, so at most `parallel` segments,
 * plus the one being read, are held at once.
 *
 * @throws {CliError} naming the input's own line, column and byte offset when a segment holds a bad line (the
 * earliest such segment's), `too-many-segments` once the input needs more segments than a session holds, and
 * `segment-too-large` for a line that runs past the worker's segment limit.
 * @example
 * ```ts
 * import type { WorkerClient } from "./worker-client.ts";
 * declare const client: WorkerClient;
 * declare const stdin: ReadableStream<Uint8Array>;
 * const result = await uploadStreamInSegments(client, { path: "-", stream: stdin }, {
 *   name: "primes",
 *   parallel: 2,
 *   progress: false,
 * });
 * ```
 */
export async function uploadStreamInSegments(
  client: WorkerClient,
  source: { path: string; stream: ReadableStream<Uint8Array> },
  options: SegmentedUploadOptions,
): Promise<SegmentedUploadResult> {
  const { name } = options;
  const { session, segmentBytes, received } = await openSegmentSession(client, options);
  const progress = startProgress({ label: "upload", total: undefined, unit: "bytes", enabled: options.progress });
  const lines = new Map<number, number>();
  const inFlight = new Map<number, Promise<void>>();
  let failure: { index: number; error: unknown } | undefined;
  let segments = 0;
  let sentSegments = 0;
  let bytes = 0;
  let sentBefore = 0;
  const sentBy = new Map<number, number>();
  const report = () => progress.update(sentBefore + [...sentBy.values()].reduce((sum, count) => sum + count, 0));
  const send = async (segment: HeldSegment, digest: string): Promise<void> => {
    try {
      const receipt = await withRetries(
        () => {
          sentBy.set(segment.index, 0);
          const body = countBytes(heldBytes(segment.bytes), (count) => {
            sentBy.set(segment.index, count);
            report();
          });
          return client.putSegment(name, session.sessionId, segment.index, body, {
            size: segment.bytes.byteLength,
            digest,
            signal: options.signal,
          });
        },
        { signal: options.signal },
      );
      lines.set(segment.index, receipt.lines);
      sentBy.delete(segment.index);
      sentBefore += segment.bytes.byteLength;
    } catch (error) {
      if (failure === undefined || segment.index < failure.index) failure = { index: segment.index, error };
      if (!isBadLine(error)) return;
      // Every earlier segment was sent before this one: once they settle, their receipts count its lines.
      await Promise.allSettled([...inFlight].filter(([index]) => index < segment.index).map(([, task]) => task));
      if (failure.index !== segment.index || ![...Array(segment.index).keys()].every((index) => lines.has(index))) {
        return;
      }
      const linesBefore = [...Array(segment.index).keys()].reduce((sum, index) => sum + lines.get(index)!, 0);
      const where = { index: segment.index, offset: segment.offset, linesBefore };
      failure = { index: segment.index, error: badLineError(error, source.path, where) ?? error };
    }
  };
  try {
    for await (const segment of cutSegments(source.stream, {
      segmentBytes,
      maxBytes: session.segmentMaxBytes,
      path: source.path,
    })) {
      if (failure !== undefined) break;
      if (segment.index >= MAX_SEGMENTS) throw tooManySegmentsError(source.path, segmentBytes);
      segments = segment.index + 1;
      const digest = createHash("sha256").update(segment.bytes).digest("base64");
      const had = received.get(segment.index);
      if (had?.digest === digest) {
        lines.set(segment.index, had.lines);
        continue;
      }
      sentSegments++;
      bytes += segment.bytes.byteLength;
      inFlight.set(
        segment.index,
        send(segment, digest).finally(() => inFlight.delete(segment.index)),
      );
      while (inFlight.size >= options.parallel) await Promise.race(inFlight.values());
    }
    while (inFlight.size > 0) await Promise.all(inFlight.values());
    if (failure !== undefined) throw failure.error;
    options.onAllSent?.();
    const manifest = await completeSession(client, name, session.sessionId, segments, options.signal);
    return { manifest, sessionId: session.sessionId, segments, sentSegments, bytes, seconds: progress.stop() };
  } catch (error) {
    await Promise.allSettled(inFlight.values());
    throw error;
  } finally {
    progress.stop();
  }
}

/** `bytes` as a stream of views of {@linkcode READ_CHUNK_BYTES} (no copies), for one attempt to send them. */
function heldBytes(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let position = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (position >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.subarray(position, position + READ_CHUNK_BYTES));
        position += READ_CHUNK_BYTES;
      },
    },
    { highWaterMark: 0 },
  );
}

/** An open session, the segment size to cut at, and the segments the worker already holds (when resuming). */
interface SegmentSession {
  session: SessionDescription;
  segmentBytes: number;
  received: Map<number, SegmentReceipt>;
}

/**
 * Opens a session (or finds the one to resume, which must still be open) and picks the segment size: the one asked
 * for, at most the worker's segment limit less a margin.
 */
async function openSegmentSession(client: WorkerClient, options: SegmentedUploadOptions): Promise<SegmentSession> {
  const session: SessionDescription & Partial<Pick<SessionWithSegments, "segments">> = options.resume
    ? await client.session(options.name, options.resume)
    : await client.openSession(options.name, options.maxPartBytes);
  if (session.state !== "open") {
    throw new CliError(`Cannot resume upload ${session.sessionId}: it is ${session.state}`, {
      code: "session-not-open",
    });
  }
  // A worker whose budget allows only small segments (small parts on the Free plan) gets a margin in proportion.
  const margin = Math.min(SEGMENT_MARGIN_BYTES, Math.floor(session.segmentMaxBytes / 8));
  const limit = Math.max(1, session.segmentMaxBytes - margin);
  const segmentBytes = Math.min(options.segmentBytes ?? limit, limit);
  options.onSession?.(session.sessionId, segmentBytes);
  const received = new Map((session.segments ?? []).map((segment) => [segment.index, segment]));
  return { session, segmentBytes, received };
}

/** Completes session `sessionId` of `name` as its first `segments` segments, retrying passing failures. */
function completeSession(
  client: WorkerClient,
  name: string,
  sessionId: string,
  segments: number,
  signal: AbortSignal | undefined,
): Promise<Manifest> {
  return withRetries(() => client.completeSession(name, sessionId, segments), { signal });
}

/** Runs `task` over `items`, at most `limit` at a time; rejects with the first failure once the others settled. */
async function inParallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
}
