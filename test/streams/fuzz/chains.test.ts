import { expect, test } from "vitest";
import { fuzzSeeds } from "./fuzz.ts";
import { chainProgramArb } from "./generators.ts";

/** Seeds run by `npm test` (a few seconds of CPU); `run.ts --chains` runs any number. */
const SEEDS = 1000;

test(`differential fuzzer: ${SEEDS} pipe chains behave on drainpipe as on Node's streams`, async () => {
  const result = await fuzzSeeds(0, SEEDS, undefined, chainProgramArb);
  expect(result.failure).toBeUndefined();
  expect(result.same + result.deviations + result.refereed).toBe(SEEDS);
  // Most chains compare equal outright: the referee (the reference implementation) settles only a few.
  expect(result.same).toBeGreaterThan(SEEDS * 0.9);
}, 120_000);
