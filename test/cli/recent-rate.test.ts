import { describe, expect, test } from "vitest";
import { RecentRate } from "../../src/cli/recent-rate.ts";

describe("RecentRate", () => {
  test("knows no rate until its readings span a window", () => {
    const rate = new RecentRate(3);
    expect(rate.perSecond()).toBeUndefined();
    rate.record(0, 0);
    rate.record(2.9, 290);
    expect(rate.perSecond()).toBeUndefined();
    rate.record(3, 300);
    expect(rate.perSecond()).toBe(100);
  });

  test("forgets a burst at the start once a window has passed it", () => {
    const rate = new RecentRate(3);
    rate.record(0, 0);
    rate.record(0.3, 28_000_000); // into socket buffers at memory speed
    for (let tenths = 5; tenths <= 50; tenths += 5) rate.record(tenths / 10, 28_000_000 + (tenths - 3) * 1_000_000);
    expect(rate.perSecond()).toBeCloseTo(10_000_000, 6);
  });

  test("spans more than a window when the readings are sparse", () => {
    const rate = new RecentRate(3);
    rate.record(0, 0);
    rate.record(10, 500);
    expect(rate.perSecond()).toBe(50);
  });
});
