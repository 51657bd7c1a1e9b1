/**
 * The rate of the last few seconds of a running count: what a progress bar's ETA rests on, so that a burst at the
 * start (the first megabytes of an upload vanish into socket buffers at memory speed) does not promise an end that
 * never comes.
 *
 * @module
 */

/** A running count's rate over its last {@linkcode RecentRate.window} seconds. */
export class RecentRate {
  /** The span, in seconds, the rate is measured over. */
  readonly window: number;
  /** Readings `[seconds, count]`, oldest first: the latest one at least a window old, and all after it. */
  readonly #readings: [number, number][] = [];

  /**
   * @param window The span, in seconds, the rate is measured over; no rate is known before that much has passed.
   */
  constructor(window: number) {
    this.window = window;
  }

  /**
   * Records that the count was `count` at `seconds` (since the start, never decreasing).
   *
   * @example
   * ```ts
   * const rate = new RecentRate(3);
   * rate.record(0, 0);
   * rate.record(1, 100);
   * ```
   */
  record(seconds: number, count: number): void {
    this.#readings.push([seconds, count]);
    while (this.#readings.length > 1 && this.#readings[1]![0] <= seconds - this.window) this.#readings.shift();
  }

  /**
   * The count's rate per second from the latest reading at least a window before the latest one (so over a window, or
   * a little more when readings are sparse); `undefined` until the readings span a whole window.
   *
   * @example
   * ```ts
   * const rate = new RecentRate(3);
   * rate.record(0, 0);
   * rate.record(0.2, 600);
   * rate.perSecond(); // undefined
   * rate.record(2, 700);
   * rate.record(4, 1000);
   * rate.record(5, 1300);
   * rate.perSecond(); // 200
   * ```
   */
  perSecond(): number | undefined {
    const first = this.#readings[0];
    const last = this.#readings.at(-1);
    if (first === undefined || last === undefined || last[0] - first[0] < this.window) return undefined;
    return (last[1] - first[1]) / (last[0] - first[0]);
  }
}
