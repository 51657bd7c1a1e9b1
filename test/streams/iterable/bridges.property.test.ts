import fc from "fast-check";
import { expect, test } from "vitest";
import { batchesArb, bridgeChoiceArb, joined, throughBridges } from "./bridge-pipelines.ts";

test("random chunk sequences through every combination of the three bridges come out byte for byte", async () => {
  await fc.assert(
    fc.asyncProperty(batchesArb, bridgeChoiceArb, async (batches, choice) => {
      expect(await throughBridges(batches, choice)).toEqual(joined(batches));
    }),
    { numRuns: 200 },
  );
});
