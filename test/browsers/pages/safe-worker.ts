/**
 * The dedicated worker of `safe.test.ts`: runs the checks (`safe-checks.ts`) and posts the report to its page.
 *
 * @module
 */
import { runSafeChecks } from "./safe-checks.ts";

runSafeChecks("dedicated worker").then((report) => postMessage(report));
