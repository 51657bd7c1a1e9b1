/** How many beats fit in one lease: a renewal may fail this many times minus one before the lease ends. */
const BEATS_PER_LEASE = 4;

/**
 * Renews a lease of `leaseMs` four times per lease until stopped. A renewal that answers `false` (the lease is
 * gone) marks the heartbeat as lost, so the work it covers can stop instead of writing objects nobody owns; a
 * renewal that fails is tried again at the next beat (the lease outlasts several beats).
 *
 * @example
 * ```ts
 * declare const renew: () => Promise<boolean>;
 * const heartbeat = new Heartbeat(renew, 60_000);
 * try {
 *   // … long work, checking heartbeat.lost now and then …
 * } finally {
 *   heartbeat.stop();
 * }
 * ```
 */
export class Heartbeat {
  readonly #timer: ReturnType<typeof setInterval>;
  #lost = false;
  #renewing = false;

  /** Starts renewing a lease of `leaseMs` with `renew`. */
  constructor(renew: () => Promise<boolean>, leaseMs: number) {
    this.#timer = setInterval(() => {
      if (this.#renewing || this.#lost) return;
      this.#renewing = true;
      renew()
        .then(
          (alive) => {
            if (!alive) this.#lost = true;
          },
          () => undefined,
        )
        .finally(() => {
          this.#renewing = false;
        });
    }, leaseMs / BEATS_PER_LEASE);
  }

  /** Whether a renewal found the lease gone. */
  get lost(): boolean {
    return this.#lost;
  }

  /** Stops renewing. */
  stop(): void {
    clearInterval(this.#timer);
  }
}
