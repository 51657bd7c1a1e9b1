import { describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { MAX_PARTS } from "../../src/split/part-splitter.ts";
import {
  MAX_SUBREQUEST_LIMIT,
  PLAN_SUBREQUESTS,
  RequestBudget,
  subrequestLimit,
} from "../../src/store/request-budget.ts";
import { contentReadStrategy, largestUpload, listingPageSize, sweepStepSize } from "../../src/worker/request-costs.ts";

// The budgets of each plan as Cloudflare's limits page gives them (read 2026-11): 50 subrequests per request on
// Workers Free, 10,000 by default on Workers Paid (`[limits] subrequests` sets another, then SUBREQUEST_LIMIT
// says so), and what the budget checks of each route make of them. platform-limits.workerd.test.ts runs the routes.

const MiB = 1024 * 1024;

/** A budget of `limit` with the one call a read opens with (`beginRead`) already made. */
function afterOpen(limit: number): RequestBudget {
  const budget = new RequestBudget(limit);
  budget.charge("beginRead");
  return budget;
}

/** A manifest of `parts` parts: all a content read's strategy looks at. */
function manifestOf(parts: number): Manifest {
  return { name: "f", parts: Array.from({ length: parts }, () => ({ bytes: 1024 })) } as unknown as Manifest;
}

describe("the budgeted subrequests", () => {
  test("Free: 50; Paid: 10,000 by default; PLAN defaults to Paid", () => {
    expect(PLAN_SUBREQUESTS).toEqual({ free: 50, paid: 10_000 });
    expect(subrequestLimit({ PLAN: "free" })).toBe(50);
    expect(subrequestLimit({ PLAN: "paid" })).toBe(10_000);
    expect(subrequestLimit({})).toBe(10_000);
  });

  test("SUBREQUEST_LIMIT overrides the plan's, from 1 to 10,000,000; anything else names it", () => {
    for (const limit of [1, 10, 1000, 50_000, MAX_SUBREQUEST_LIMIT]) {
      expect(subrequestLimit({ PLAN: "paid", SUBREQUEST_LIMIT: String(limit) })).toBe(limit);
    }
    expect(subrequestLimit({ PLAN: "free", SUBREQUEST_LIMIT: "10" })).toBe(10);
    expect(MAX_SUBREQUEST_LIMIT).toBe(10_000_000);
    for (const value of ["0", "10000001", "-5", "1e4", "lots", "10,000"]) {
      expect(() => subrequestLimit({ SUBREQUEST_LIMIT: value })).toThrow(/^Cannot use SUBREQUEST_LIMIT: /);
    }
  });
});

describe("what each plan's budget holds", () => {
  test("a content read: 44 parts directly on Free, then slices of 48; every part directly on Paid", () => {
    expect(contentReadStrategy(afterOpen(50), manifestOf(44), 44, 50)).toBe("direct");
    expect(contentReadStrategy(afterOpen(50), manifestOf(45), 45, 50)).toBe(48);
    expect(contentReadStrategy(afterOpen(10_000), manifestOf(MAX_PARTS), MAX_PARTS, 10_000)).toBe("direct");
    expect(contentReadStrategy(afterOpen(10_000), manifestOf(9_994), 9_994, 10_000)).toBe("direct");
    expect(contentReadStrategy(afterOpen(10_000), manifestOf(9_995), 9_995, 10_000)).toBe(9_998);
  });

  test("a listing page: 49 on Free, 100 on Paid", () => {
    expect(listingPageSize(new RequestBudget(50), null)).toBe(49);
    expect(listingPageSize(new RequestBudget(10_000), null)).toBe(100);
  });

  test("a sweep step: 48 names on Free, 1,000 (one R2 listing) on Paid", () => {
    expect(sweepStepSize(new RequestBudget(50))).toBe(48);
    expect(sweepStepSize(new RequestBudget(10_000))).toBe(1000);
    expect(sweepStepSize(new RequestBudget(1000))).toBe(998);
  });

  test("one upload on Paid holds a file of MAX_PARTS parts of 10 MiB; on Free, 41 parts of 1 MiB", () => {
    expect(largestUpload(10_000 - 1, 10 * MiB)).toBe(MAX_PARTS * 10 * MiB);
    expect(largestUpload(49, MiB)).toBe(42_990_919);
  });
});
