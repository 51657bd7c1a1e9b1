/**
 * Renews a lease every `intervalMs` until stopped. A renewal that answers `false` (the lease is gone) marks the
 * heartbeat as lost, so the work it covers can stop instead of writing objects nobody owns; a renewal that fails
 * is tried again at the next beat (the lease outlasts several beats).
 *
 * @example
 * ```ts
 * declare const renew: () => Promise<boolean>;
 * const heartbeat = new Heartbeat(renew, 15_000);
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

  /** Starts renewing with `renew` every `intervalMs` milliseconds. */
  constructor(renew: () => Promise<boolean>, intervalMs: number) {
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
    }, intervalMs);
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
