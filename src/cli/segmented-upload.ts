/**
 * An upload of any size as a session: the file cut at line breaks into segments under the worker's body limit,
 * sent `parallel` at a time with their `Content-Digest`, retried on passing failures, then completed into one
 * version. A session can be resumed: only segments the worker lacks (or holds with another digest) are sent.
 *
 * @module
 */
import type { Manifest } from "../files/manifest.ts";
import type { SegmentReceipt, SessionDescription, SessionWithSegments } from "../worker/api-types.ts";
import { badLineError, isBadLine } from "./bad-line.ts";
import { CliError } from "./cli-error.ts";
import { countLineBreaks, digestOfRange, type FileRange, readRange } from "./file-range.ts";
import { countBytes, startProgress } from "./progress.ts";
import { withRetries } from "./retry.ts";
import { planSessionSegments } from "./segment-plan.ts";
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
  uploadId: string;
  /** Segments the file was cut into. */
  segments: number;
  /** Segments sent by this run (fewer when resuming). */
  sentSegments: number;
  /** Bytes sent by this run. */
  bytes: number;
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
  const session: SessionDescription & Partial<Pick<SessionWithSegments, "segments">> = options.resume
    ? await client.session(name, options.resume)
    : await client.openSession(name, options.maxPartBytes);
  if (session.state !== "open") {
    throw new CliError(`Cannot resume upload ${session.uploadId}: it is ${session.state}`, {
      code: "session-not-open",
    });
  }
  // A worker whose budget allows only small segments (small parts on the Free plan) gets a margin in proportion.
  const margin = Math.min(SEGMENT_MARGIN_BYTES, Math.floor(session.segmentMaxBytes / 8));
  const limit = Math.max(1, session.segmentMaxBytes - margin);
  const segmentBytes = Math.min(options.segmentBytes ?? limit, limit);
  options.onSession?.(session.uploadId, segmentBytes);
  const ranges = await planSessionSegments(file, segmentBytes);
  const received = new Map((session.segments ?? []).map((segment) => [segment.index, segment.digest]));
  const digests = new Map<number, string>();
  const toSend: FileRange[] = [];
  for (const range of ranges) {
    const digest = await digestOfRange(file.path, range.start, range.end);
    digests.set(range.index, digest);
    if (received.get(range.index) !== digest) toSend.push(range);
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
        return client.putSegment(name, session.uploadId, range.index, body, {
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
  try {
    await inParallel(toSend, options.parallel, send);
  } finally {
    progress.stop();
  }
  options.onAllSent?.();
  const manifest = await withRetries(() => client.completeSession(name, session.uploadId, ranges.length), {
    signal: options.signal,
  });
  return { manifest, uploadId: session.uploadId, segments: ranges.length, sentSegments: toSend.length, bytes: total };
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
