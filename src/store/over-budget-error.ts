/** The subrequest counts behind an {@linkcode OverBudgetError}. */
export interface OverBudgetCounts {
  /** Subrequests the refused work needs. */
  needed: number;
  /** Subrequests the invocation may still make. */
  available: number;
  /** The invocation's whole limit. */
  limit: number;
}

/**
 * Work refused before it started because it needs more subrequests than the invocation has left (see
 * `RequestBudget.check`); the message says what to ask for instead.
 *
 * @example
 * ```ts
 * const error = new OverBudgetError("Cannot read 60 parts: …", { needed: 62, available: 48, limit: 50 });
 * error.counts.needed; // 62
 * ```
 */
export class OverBudgetError extends Error {
  override name = "OverBudgetError";
  /** What the work needed and what was left. */
  readonly counts: OverBudgetCounts;

  /** An error with `message` (what could not be done, and what to do instead) and the `counts` behind it. */
  constructor(message: string, counts: OverBudgetCounts, options?: ErrorOptions) {
    super(message, options);
    this.counts = counts;
  }
}
