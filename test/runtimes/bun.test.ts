import { test } from "vitest";
import { expectAllChecksPassed, localBinary, missingRuntime, runSmokeScript, SMOKE_SCRIPT } from "./smoke-script.ts";

const missing = missingRuntime("bun");

test.skipIf(missing !== undefined)(
  `the smoke script exits 0 with every check ok on Bun${missing === undefined ? "" : ` (skipped: ${missing})`}`,
  { timeout: 120_000 },
  async () => {
    expectAllChecksPassed(await runSmokeScript(localBinary("bun"), [SMOKE_SCRIPT]), "Bun");
  },
);
