/**
 * The progress line under the uploader: bytes sent of the total, the rate in MB/s over the last seconds and the
 * time left at that rate.
 *
 * @module
 */
import prettyBytes from "pretty-bytes";
import prettyMs from "pretty-ms";

/** How far back the rate looks: long enough to smooth chunk boundaries, short enough to follow a change. */
const RATE_WINDOW_MS = 5_000;

/** One reading of the bytes sent. */
interface Sample {
  /** `performance.now()` of the reading. */
  at: number;
  /** Bytes sent by then. */
  bytes: number;
}

/** A snapshot of {@linkcode UploadProgress}. */
export interface ProgressReading {
  /** Bytes the worker has (those of resumed uploads included). */
  sent: number;
  /** Bytes of all the files being uploaded. */
  total: number;
  /** Bytes per second over the last few seconds; `undefined` until two readings apart in time. */
  bytesPerSecond: number | undefined;
  /** Seconds left at that rate; `undefined` without a rate. */
  secondsLeft: number | undefined;
}

/**
 * Follows the bytes sent of an upload and derives its rate and time left from the readings of the last
 * {@link RATE_WINDOW_MS} milliseconds. The first reading is the baseline: an upload that resumes at 80 MB does
 * not count those 80 MB as sent in its first second.
 *
 * @example
 * ```ts
 * const progress = new UploadProgress();
 * progress.update(0, 200e6, 0);
 * progress.update(50e6, 200e6, 1000);
 * describeProgress(progress.reading()); // "50 MB of 200 MB · 50.0 MB/s · 3s left"
 * ```
 */
export class UploadProgress {
  #samples: Sample[] = [];
  #total = 0;

  /** Records that `sent` of `total` bytes are sent at `at` (default: now). */
  update(sent: number, total: number, at: number = performance.now()): void {
    this.#total = total;
    const last = this.#samples.at(-1);
    if (last && sent < last.bytes) this.#samples = []; // a new upload, or a part sent again after an error
    this.#samples.push({ at, bytes: sent });
    while (this.#samples.length > 2 && at - this.#samples[0]!.at > RATE_WINDOW_MS) this.#samples.shift();
  }

  /** Forgets the readings: the next upload starts afresh. */
  reset(): void {
    this.#samples = [];
    this.#total = 0;
  }

  /** The latest reading with its rate and time left. */
  reading(): ProgressReading {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    const sent = last?.bytes ?? 0;
    const elapsed = first && last ? last.at - first.at : 0;
    const bytesPerSecond = first && last && elapsed > 0 ? ((last.bytes - first.bytes) * 1000) / elapsed : undefined;
    const secondsLeft =
      bytesPerSecond !== undefined && bytesPerSecond > 0 ? (this.#total - sent) / bytesPerSecond : undefined;
    return { sent, total: this.#total, bytesPerSecond, secondsLeft };
  }
}

/**
 * `reading` in words: `"84 MB of 200 MB · 41.2 MB/s · 3s left"` (without the rate and time until they are known).
 */
export function describeProgress(reading: ProgressReading): string {
  const words = [`${prettyBytes(reading.sent)} of ${prettyBytes(reading.total)}`];
  if (reading.bytesPerSecond !== undefined) words.push(`${(reading.bytesPerSecond / 1e6).toFixed(1)} MB/s`);
  if (reading.secondsLeft !== undefined && reading.sent < reading.total) {
    words.push(`${prettyMs(Math.max(1000, reading.secondsLeft * 1000), { secondsDecimalDigits: 0 })} left`);
  }
  return words.join(" · ");
}
