import { describe, expect, test } from "vitest";
import { issue21Cases } from "./issue-21-cases.ts";

describe("issue 21 regressions (Node)", () => {
  for (const { name, run, expected } of issue21Cases) {
    test(name, async () => {
      expect(await run()).toEqual(expected);
    });
  }
});
