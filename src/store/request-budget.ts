/**
 * The platform's per-request limit on subrequests, kept by the worker and its Durable Objects themselves.
 * Cloudflare counts every call an invocation (a request to the worker, a call or alarm of a Durable Object) makes
 * to a binding (each R2 operation, each Durable Object call, each `uploadPart`) as a subrequest and refuses calls
 * past the plan's limit; local workerd counts nothing. Every binding call is charged here (see
 * `metered-bucket.ts`), and work is checked against what is left before it starts, so a request that cannot fit
 * is refused up front instead of failing halfway.
 *
 * @module
 */
import { OverBudgetError } from "./over-budget-error.ts";
import { SubrequestLimitError } from "./subrequest-limit-error.ts";

/** The Workers plans whose limits the settings know. */
export type Plan = "free" | "paid";

/**
 * Subrequests per request on each plan, as Cloudflare's limits page gives them: 50 on Workers Free, 10,000 by
 * default on Workers Paid (`[limits] subrequests` in `wrangler.toml` sets another: then set `SUBREQUEST_LIMIT` too).
 */
export const PLAN_SUBREQUESTS: Readonly<Record<Plan, number>> = { free: 50, paid: 10_000 };

/**
 * Most subrequests `SUBREQUEST_LIMIT` may allow: 10,000,000, the most `[limits] subrequests` can raise a Paid
 * worker to; a larger one is taken for a mistake and refused (`500 misconfigured`), never counted on.
 */
export const MAX_SUBREQUEST_LIMIT = 10_000_000;

/** The variables that set the subrequests per invocation: the worker's and its Durable Objects' alike. */
export interface SubrequestVars {
  /** `"paid"` (default) or `"free"`. */
  PLAN?: string | undefined;
  /** A limit other than the plan's (what `[limits] subrequests` sets), 1 to {@linkcode MAX_SUBREQUEST_LIMIT}. */
  SUBREQUEST_LIMIT?: string | undefined;
}

/**
 * Subrequests one invocation may make under `vars`: `SUBREQUEST_LIMIT` when set, else the plan's.
 *
 * @throws {RangeError} "Cannot use PLAN: …" or "Cannot use SUBREQUEST_LIMIT: …" for a malformed value.
 *
 * @example
 * ```ts
 * subrequestLimit({ PLAN: "free" }); // 50
 * subrequestLimit({}); // 10000
 * subrequestLimit({ PLAN: "paid", SUBREQUEST_LIMIT: "50000" }); // 50000
 * ```
 */
export function subrequestLimit(vars: SubrequestVars): number {
  const { PLAN: plan = "", SUBREQUEST_LIMIT: override = "" } = vars;
  if (plan !== "" && plan !== "free" && plan !== "paid") {
    throw new RangeError(`Cannot use PLAN: "${plan}" is not one of "free", "paid"`);
  }
  if (override === "") return PLAN_SUBREQUESTS[plan === "free" ? "free" : "paid"];
  const limit = /^[0-9]+$/.test(override) ? Number(override) : Number.NaN;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`Cannot use SUBREQUEST_LIMIT: "${override}" is not a positive whole number`);
  }
  if (limit > MAX_SUBREQUEST_LIMIT) {
    throw new RangeError(`Cannot use SUBREQUEST_LIMIT: ${limit} is more than ${MAX_SUBREQUEST_LIMIT}`);
  }
  return limit;
}

/**
 * What one request may still call. Charged by the metered bindings, consulted by routes before they start.
 *
 * @example
 * ```ts
 * const budget = new RequestBudget(50);
 * budget.charge("R2 get");
 * // 3 fit in the 49 left, so this returns (50 would throw an OverBudgetError):
 * budget.check(3, "read 3 parts", "read fewer parts");
 * budget.remaining; // 49
 * ```
 */
export class RequestBudget {
  /** Most subrequests the request may make in all. */
  readonly limit: number;
  #used = 0;
  #reserved = 0;

  /** A budget of `limit` subrequests, none used yet. */
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Subrequests made so far. */
  get used(): number {
    return this.#used;
  }

  /** Subrequests the request may still make, not counting those {@linkcode reserve}d. */
  get remaining(): number {
    return this.limit - this.#used - this.#reserved;
  }

  /**
   * Counts one binding call named `what` (e.g. `"R2 put"`).
   *
   * @throws {SubrequestLimitError} when the request has no subrequest left: the call is not made.
   */
  charge(what: string): void {
    if (this.remaining <= 0) throw new SubrequestLimitError(what, this.limit);
    this.#used += 1;
  }

  /**
   * Sets `count` subrequests aside for the clean-up after a failure: no call may use them until
   * {@linkcode release}, so work that runs out of subrequests can still undo itself.
   */
  reserve(count: number): void {
    this.#reserved += count;
  }

  /** Makes every reserved subrequest available again, for the clean-up that needs them. */
  release(): void {
    this.#reserved = 0;
  }

  /**
   * Checks, before any of it starts, that work needing `count` more subrequests fits what is left.
   *
   * @throws {OverBudgetError} naming `action`, what it needs and what is left, and `advice`: what the client
   * can ask for instead (the worker answers it with `422 over-budget`).
   */
  check(count: number, action: string, advice: string): void {
    if (count <= this.remaining) return;
    throw new OverBudgetError(
      `Cannot ${action}: it needs ${count} subrequests and this request may make ${this.remaining} more ` +
        `(the worker's limit is ${this.limit} per request); ${advice}`,
      { needed: count, available: this.remaining, limit: this.limit },
    );
  }
}
