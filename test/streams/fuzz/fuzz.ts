/**
 * The differential fuzzer's driver: one generated program per seed, compared on both implementations, the first
 * difference shrunk by fast-check to a minimal program.
 * @module
 */

import fc from "fast-check";
import { compare, type Verdict } from "./compare.ts";
import { programArb } from "./generators.ts";
import type { Program } from "./program.ts";

/** The counts of a fuzzing run, and the first failure (shrunk), printed. */
export interface FuzzResult {
  /** Programs that behaved the same. */
  same: number;
  /** Programs set aside because the native run showed a known departure of Node's (see `deviations.ts`). */
  deviations: number;
  /** Programs where Node differed and the reference implementation agreed with drainpipe (see `compare.ts`). */
  refereed: number;
  /** How many programs each kind of refereed difference covered. */
  byReferee: Map<string, number>;
  /** How many programs each known deviation set aside. */
  byDeviation: Map<string, number>;
  /** The shrunk failing program and both logs, ready to print. */
  failure: string | undefined;
}

/** Prints a failing program and where the two logs part. */
export function describeFailure(seed: number, program: Program, verdict: Verdict): string {
  const lines = [`seed ${seed}: drainpipe differs from the native streams`, `program: ${JSON.stringify(program)}`];
  if (verdict.kind === "different") {
    let first = 0;
    while (first < verdict.native.length && verdict.native[first] === verdict.drainpipe[first]) first++;
    lines.push(`logs agree up to line ${first}`);
    lines.push("native:", ...verdict.native.map((line, i) => `${i === first ? ">" : " "} ${line}`));
    lines.push("drainpipe:", ...verdict.drainpipe.map((line, i) => `${i === first ? ">" : " "} ${line}`));
    for (const error of verdict.uncaught) lines.push(`drainpipe uncaught: ${(error as Error)?.stack ?? String(error)}`);
  }
  return lines.join("\n");
}

/**
 * Runs seeds `from` to `from + count - 1`, one program each; stops at the first program that differs and shrinks
 * it. `progress` is called after each seed.
 */
export async function fuzzSeeds(
  from: number,
  count: number,
  progress?: (done: number) => void,
  programs: fc.Arbitrary<Program> = programArb,
): Promise<FuzzResult> {
  const result: FuzzResult = {
    same: 0,
    deviations: 0,
    byDeviation: new Map(),
    refereed: 0,
    byReferee: new Map(),
    failure: undefined,
  };
  for (let seed = from; seed < from + count; seed++) {
    let first: Verdict | undefined;
    const outcome = await fc.check(
      fc.asyncProperty(programs, async (program) => {
        const verdict = await compare(program);
        first ??= verdict;
        return verdict.kind !== "different";
      }),
      { seed, numRuns: 1, endOnFailure: false },
    );
    if (first?.kind === "same") result.same += 1;
    if (first?.kind === "referee") {
      result.refereed += 1;
      result.byReferee.set(first.signature, (result.byReferee.get(first.signature) ?? 0) + 1);
    }
    if (first?.kind === "deviation") {
      result.deviations += 1;
      result.byDeviation.set(first.deviation, (result.byDeviation.get(first.deviation) ?? 0) + 1);
    }
    if (outcome.failed) {
      const program = (outcome.counterexample as [Program])[0];
      result.failure = describeFailure(seed, program, await compare(program));
      return result;
    }
    progress?.(seed - from + 1);
  }
  return result;
}
