/**
 * The slowest pace at which a native stream may deliver bytes before an adapter gives up on it.
 * @module
 */

/**
 * The slowest acceptable delivery of a native stream, as a deadline per native read: a read that waits for `n`
 * bytes fails unless it completes within `idleMs + n / bytesPerSecond` seconds. A source that stops sending is
 * given up after that long, and so is one that trickles slower than `bytesPerSecond` (a read ending early because
 * the stream ended completes it).
 */
export interface ReadPace {
  /** Milliseconds any native read may take, whatever its size (at least 1). */
  idleMs: number;
  /** Bytes per second below which a read of many bytes counts as stalled (more than 0). */
  bytesPerSecond: number;
}

/**
 * The error of a native read that missed its {@link ReadPace} deadline: the adapted stream errors with it and
 * the native stream is cancelled with it.
 *
 * @example
 * ```ts
 * const error = new ReadTimeoutError(65_536, 34_000);
 * error.message; // "Cannot read the native stream: 65536 bytes did not arrive within 34000 ms"
 * ```
 */
export class ReadTimeoutError extends Error {
  /** Bytes the read waited for. */
  readonly bytes: number;
  /** The read's deadline, in milliseconds. */
  readonly timeoutMs: number;

  /** An error for a read of `bytes` bytes that took longer than `timeoutMs`. */
  constructor(bytes: number, timeoutMs: number, options?: ErrorOptions) {
    super(`Cannot read the native stream: ${bytes} bytes did not arrive within ${timeoutMs} ms`, options);
    this.name = "ReadTimeoutError";
    this.bytes = bytes;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The deadline in milliseconds of a native read waiting for `bytes` bytes at `pace`.
 *
 * @example
 * ```ts
 * readDeadline({ idleMs: 30_000, bytesPerSecond: 16_384 }, 1_048_576); // 94000
 * ```
 */
export function readDeadline(pace: ReadPace, bytes: number): number {
  return Math.ceil(pace.idleMs + (1000 * bytes) / pace.bytesPerSecond);
}

/**
 * Checks `pace`'s fields, so a misconfigured pace fails where it is given rather than as a timer that fires at
 * once or never.
 *
 * @throws {RangeError} when `idleMs` is not at least 1 or `bytesPerSecond` not more than 0.
 */
export function checkReadPace(pace: ReadPace): ReadPace {
  if (!(pace.idleMs >= 1) || !Number.isFinite(pace.idleMs)) {
    throw new RangeError(`Cannot use a read pace of ${pace.idleMs} idle ms: expected a finite number of at least 1`);
  }
  if (!(pace.bytesPerSecond > 0)) {
    throw new RangeError(`Cannot use a read pace of ${pace.bytesPerSecond} bytes per second: expected more than 0`);
  }
  return pace;
}
