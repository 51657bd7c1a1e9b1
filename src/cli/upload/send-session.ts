/**
 * Sending an input as an upload session: cut into segments sent in parallel, which a later run can resume.
 *
 * @module
 */
import { CliError, EXIT_FAILURE, EXIT_INTERRUPTED } from "../cli-error.ts";
import { formatBytes } from "../format.ts";
import type { InputStream } from "../local-file.ts";
import { type SegmentedUploadOptions, uploadInSegments, uploadStreamInSegments } from "../segmented-upload.ts";
import { type ResumableSession, resumeCommand } from "./resume-command.ts";
import type { SendContext } from "./send-context.ts";
import { allSent } from "./upload-interruption.ts";
import { type UploadResult, uploadResult } from "./upload-result.ts";

/** What a session did: an upload's result, with its segments and the session's id. */
export type SessionResult = UploadResult & { segments: number; sentSegments: number; sessionId: string };

/**
 * An upload session of `source` stored as `name`: a regular file by ranges (re-read as needed, so its stream is
 * cancelled at once), a stream of unknown size as it is read. Says on stderr, once the session is open, how to
 * resume it; on Ctrl-C or a failure, aborts it, or keeps it under `--keep-session` and says again how to resume it.
 *
 * @throws {CliError} `interrupted` (exit 130) after Ctrl-C, or the failure's own code, its message followed by what
 * became of the session (removed, left to expire, or kept with the command that resumes it).
 *
 * @example
 * ```ts
 * import { openFileStream } from "../local-file.ts";
 * import type { SendContext } from "./send-context.ts";
 * declare const context: SendContext;
 * const { segments } = await sendSession(context, await openFileStream("primes.txt"), "primes");
 * ```
 */
export async function sendSession(context: SendContext, source: InputStream, name: string): Promise<SessionResult> {
  const { client, settings, interruption } = context;
  const file = source.path;
  const { signal } = interruption;
  const { size } = source;
  if (size !== undefined) await source.stream.cancel();
  let session: ResumableSession | undefined;
  try {
    const segmentOptions: SegmentedUploadOptions = {
      name,
      maxPartBytes: settings.maxPartBytes,
      segmentBytes: settings.segmentBytes,
      parallel: settings.parallel,
      progress: settings.progress,
      resume: settings.resume,
      signal,
      onAllSent: () => allSent(interruption),
      onSession: (sessionId, segmentBytes) => {
        session = { sessionId, segmentBytes };
        process.stderr.write(
          `drainpipe: upload session ${sessionId} (segments of about ${formatBytes(segmentBytes)}); if this run ` +
            `dies, resume it with:\n  ${resumeCommand(file, name, session, settings.connectionWords)}\n`,
        );
      },
    };
    const done =
      size === undefined
        ? await uploadStreamInSegments(client, { path: file, stream: source.stream }, segmentOptions)
        : await uploadInSegments(client, { path: file, size }, segmentOptions);
    return {
      ...uploadResult(file, done.manifest, done.bytes, done.seconds),
      segments: done.segments,
      sentSegments: done.sentSegments,
      sessionId: done.sessionId,
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
    const details = { ...failure?.details, sessionId: session.sessionId };
    if (settings.keepSession) {
      const resume = resumeCommand(file, name, session, settings.connectionWords);
      throw new CliError(`${reason}\nthe upload session is kept; resume it with:\n  ${resume}`, {
        ...facts,
        details: { ...details, sessionKept: true, resume },
      });
    }
    const removed = await client.abortSession(name, session.sessionId).then(
      () => true,
      () => false,
    );
    const aborted = removed ? "the worker removed the upload session" : "the upload session goes when it expires";
    throw new CliError(`${reason}\n${aborted} (${session.sessionId})`, {
      ...facts,
      details: { ...details, sessionKept: false, sessionRemoved: removed },
    });
  }
}
