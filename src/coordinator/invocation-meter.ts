import { RequestBudget } from "../store/request-budget.ts";

/**
 * The subrequests of the coordinator's invocation that is changing the file now. Each call and each alarm of a
 * Durable Object is an invocation with the plan's limit of its own; the coordinator runs its changes (the only
 * work that touches the bucket, but for part reads) one at a time, so one meter serves them all: each change
 * begins a new count, and its bucket calls are charged to it and refused past the limit, as the platform would.
 *
 * @example
 * ```ts
 * const meter = new InvocationMeter(50);
 * meter.begin();
 * meter.charge("R2 list");
 * meter.used; // 1
 * ```
 */
export class InvocationMeter {
  /** Subrequests one invocation may make. */
  readonly limit: number;
  #budget: RequestBudget;

  /** A meter of invocations of `limit` subrequests each. */
  constructor(limit: number) {
    this.limit = limit;
    this.#budget = new RequestBudget(limit);
  }

  /** Starts the count of a new invocation's change. */
  begin(): void {
    this.#budget = new RequestBudget(this.limit);
  }

  /** Subrequests the current change has made. */
  get used(): number {
    return this.#budget.used;
  }

  /**
   * Charges one call to the current change.
   *
   * @throws {SubrequestLimitError} past the limit.
   */
  charge(what: string): void {
    this.#budget.charge(what);
  }
}
