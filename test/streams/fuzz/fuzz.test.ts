import { expect, test } from "vitest";
import { fuzzSeeds } from "./fuzz.ts";

/** Seeds run by `npm test` (a few seconds of CPU); `run.ts` runs any number. */
const SEEDS = 400;

test(`differential fuzzer: ${SEEDS} programs behave on drainpipe as on Node's streams`, async () => {
  const result = await fuzzSeeds(0, SEEDS);
  expect(result.failure).toBeUndefined();
  expect(result.same + result.deviations + result.refereed).toBe(SEEDS);
}, 120_000);
