import { ErrorCode } from "../http-contract/error-code.ts";
import { CliError } from "./cli-error.ts";
import { formatCount } from "./format.ts";
import { WorkerError } from "./worker-error.ts";

/** Where a segment of the file starts, to turn the worker's position within the segment into the file's. */
export interface SegmentStart {
  /** The segment's index. */
  index: number;
  /** Line breaks before the segment: its first line is the file's line `linesBefore + 1`. */
  linesBefore: number;
  /** The segment's first byte in the file. */
  offset: number;
}

/** The worker's own account of the position in its detail, which the message gives once, in the file's terms. */
const PARSE_POSITION = /^Cannot parse line \d+, column \d+: /;

/**
 * Whether `error` is the worker's `400 invalid-number` with the line and column of the bad input.
 *
 * @example
 * ```ts
 * import { WorkerError } from "./worker-error.ts";
 * isBadLine(new WorkerError("upload", 400, { error: "invalid-number", detail: "…", line: 2, column: 1 })); // true
 * ```
 */
export function isBadLine(error: unknown): error is WorkerError & { body: { line: number; column: number } } {
  return (
    error instanceof WorkerError &&
    error.is(ErrorCode.invalidNumber) &&
    typeof error.body.line === "number" &&
    typeof error.body.column === "number"
  );
}

/**
 * The worker's `400 invalid-number` told in the local file's terms: the path as given, the file's line and column,
 * and its byte offset when the worker sent one (for a segment, the segment's position shifted by where the
 * segment starts); `undefined` for any other error.
 *
 * @example
 * ```ts
 * declare const error: unknown;
 * throw badLineError(error, "primes.txt") ?? error;
 * // Cannot upload "primes.txt": line 4, column 2 (byte offset 7): unexpected byte 0x78 ('x'); expected a digit …
 * ```
 */
export function badLineError(error: unknown, path: string, segment?: SegmentStart): CliError | undefined {
  if (!isBadLine(error)) return undefined;
  const { line, column, offset, detail } = error.body;
  const fileLine = line + (segment?.linesBefore ?? 0);
  const fileOffset = typeof offset === "number" ? offset + (segment?.offset ?? 0) : undefined;
  const where = [
    ...(fileOffset === undefined ? [] : [`byte offset ${formatCount(fileOffset)}`]),
    ...(segment === undefined ? [] : [`in segment ${formatCount(segment.index)}`]),
  ];
  const at = `line ${formatCount(fileLine)}, column ${formatCount(column)}`;
  return new CliError(
    `Cannot upload "${path}": ${at}${where.length > 0 ? ` (${where.join(", ")})` : ""}: ` +
      detail.replace(PARSE_POSITION, ""),
    {
      code: "invalid-number",
      details: {
        ...error.details,
        path,
        line: fileLine,
        column,
        ...(fileOffset === undefined ? {} : { offset: fileOffset }),
        ...(segment === undefined ? {} : { segment: segment.index }),
      },
      cause: error,
    },
  );
}
