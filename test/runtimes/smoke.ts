/**
 * The runtime smoke script: `deno run test/runtimes/smoke.ts`, `bun test/runtimes/smoke.ts`,
 * `node test/runtimes/smoke.ts` (Node 24). Prints `ok <check>` or `not ok <check>: <error>` per check, then
 * `smoke: <passed>/<total> passed on <user agent>`, and exits non-zero when any check fails.
 * @module
 */

import { runSmokeChecks } from "./smoke-checks.ts";

const results = await runSmokeChecks();
for (const { name, error } of results) {
  console.log(
    error === undefined ? `ok ${name}` : `not ok ${name}: ${error instanceof Error ? error.stack : String(error)}`,
  );
}
const passed = results.filter((result) => result.error === undefined).length;
console.log(`smoke: ${passed}/${results.length} passed on ${navigator.userAgent}`);
if (passed !== results.length) throw new Error(`smoke: ${results.length - passed} check(s) failed`);
