import { describe, expect, test } from "vitest";
import { smokeChecks } from "./smoke-checks.ts";
import { expectAllChecksPassed, localBinary, runSmokeScript, SMOKE_SCRIPT } from "./smoke-script.ts";

describe("runtime smoke checks on Node", () => {
  for (const { name, run } of smokeChecks) {
    test(name, async () => {
      await expect(run()).resolves.toBeUndefined();
    });
  }

  test("the smoke script exits 0 with every check ok on the project's Node", { timeout: 120_000 }, async () => {
    expectAllChecksPassed(await runSmokeScript(localBinary("node"), [SMOKE_SCRIPT]), "Node.js");
  });
});
