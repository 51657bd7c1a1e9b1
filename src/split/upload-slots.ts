/**
 * A counting semaphore for uploads: at most `limit` writes are in flight at once, so the bytes a split holds
 * in memory are bounded by a constant (`(limit + 1) × chunk size`) whatever the input's size. The first
 * failure of any upload is remembered so that writers stop early.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const slots = new UploadSlots(2);
 * await slots.acquire();
 * const stored = slots.run(() => store.put("primes/part-0", new Uint8Array([50, 10])));
 * ```
 */
export class UploadSlots {
  readonly #limit: number;
  #active = 0;
  readonly #waiters: (() => void)[] = [];
  readonly #running = new Set<Promise<unknown>>();
  #failure: { error: unknown } | undefined;

  /** Allows `limit` concurrent uploads (a whole number, at least 1). */
  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`Cannot allow ${limit} uploads in flight: expected a whole number of at least 1`);
    }
    this.#limit = limit;
  }

  /** The first error any upload run through {@linkcode run} failed with, if one has. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  /**
   * Takes a slot. Returns `undefined` when one was free (the common case, no promise is made), or a
   * promise that resolves once a slot has been handed over.
   */
  acquire(): Promise<void> | undefined {
    if (this.#active < this.#limit) {
      this.#active += 1;
      return undefined;
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Runs `task` in a slot already taken with {@linkcode acquire}, and frees the slot when it settles. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const running = Promise.resolve()
      .then(task)
      .then(
        (value) => {
          this.#release();
          return value;
        },
        (error: unknown) => {
          this.#failure ??= { error };
          this.#release();
          throw error;
        },
      );
    const tracked = running.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(tracked);
    void tracked.then(() => this.#running.delete(tracked));
    return running;
  }

  /** Resolves once every upload started so far has settled, successfully or not. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  #release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#active -= 1;
  }
}
