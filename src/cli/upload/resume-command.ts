/**
 * The command line that resumes an upload session, printed when the session opens and after a failure under
 * `--keep-session`.
 *
 * @module
 */
import { invocation, shellWord } from "../invocation.ts";

/** The session to resume: its id and the segment size it was cut at. */
export interface ResumableSession {
  /** The session's id. */
  sessionId: string;
  /** The segment size the file is cut at, which the resumed run must cut at too. */
  segmentBytes: number;
}

/**
 * The command that resumes `session`: this run's command name (see {@linkcode invocation}), the file, `--name`,
 * `--resume` and `--segment-bytes`, then `connectionWords`, the `--url` or `--state-dir` this run was given (never
 * the token: `--token` stays a placeholder when it was given on the command line rather than in `DRAINPIPE_TOKEN`).
 *
 * @example
 * ```ts
 * const session = { sessionId: "mx1-2f", segmentBytes: 1_000_000 };
 * resumeCommand("my primes.txt", "primes", session, ["--token", "<token>"]).endsWith(
 *   "upload 'my primes.txt' --name primes --resume mx1-2f --segment-bytes 1000000 --token <token>",
 * ); // true
 * ```
 */
export function resumeCommand(
  file: string,
  name: string,
  session: ResumableSession,
  connectionWords: readonly string[],
): string {
  const words = [
    invocation(),
    "upload",
    shellWord(file),
    "--name",
    name,
    "--resume",
    session.sessionId,
    "--segment-bytes",
    String(session.segmentBytes),
  ];
  return [...words, ...connectionWords].join(" ");
}
