/**
 * The classic script a WPT page loads right after testharness.js (`test/wpt/browser-suite.ts`): collects every
 * subtest's result and the harness status, and resolves `globalThis.wptResults` with them once testharness.js
 * reports completion.
 *
 * @module
 */
import type { HarnessStatus, SubtestResult } from "../../wpt/results.ts";
import { HARNESS_STATUS_NAMES, SUBTEST_STATUS_NAMES } from "../../wpt/results.ts";

/** What `globalThis.wptResults` resolves with. */
export interface PageResults {
  subtests: SubtestResult[];
  status: HarnessStatus;
  message: string | null;
}

/** The slice of testharness.js's global API used here. */
interface Harness {
  add_result_callback(callback: (test: { name: string; status: number; message: string | null }) => void): void;
  add_completion_callback(callback: (tests: unknown, status: { status: number; message: string | null }) => void): void;
}

const harness = globalThis as unknown as Harness;
const subtests: SubtestResult[] = [];
(globalThis as { wptResults?: Promise<PageResults> }).wptResults = new Promise((resolve) => {
  harness.add_result_callback((test) => {
    const status = SUBTEST_STATUS_NAMES[test.status] ?? "FAIL";
    subtests.push({ name: String(test.name), status, message: test.message ?? null });
  });
  harness.add_completion_callback((_tests, status) => {
    resolve({ subtests, status: HARNESS_STATUS_NAMES[status.status] ?? "ERROR", message: status.message ?? null });
  });
});
