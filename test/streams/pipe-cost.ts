/**
 * Cost shapes of pipes, counted per chunk (never timed): shared by the pipe tests.
 * @module
 */

import { promiseHooks } from "node:v8";
import { expect } from "vitest";

/** Chunks of the shorter of the two runs {@link perChunk} compares. */
export const CHUNKS = 10_000;

/** Counts the promises created from its construction until {@link PromiseCount.stop}. */
class PromiseCount {
  created = 0;
  readonly stop = promiseHooks.onInit(() => {
    this.created += 1;
  });
}

/** Runs `work` and counts the promises created meanwhile (each one a microtask or an allocation the pipe paid). */
export async function promisesCreatedBy(work: () => Promise<unknown>): Promise<number> {
  const count = new PromiseCount();
  try {
    await work();
  } finally {
    count.stop();
  }
  return count.created;
}

/** Runs synchronous `work` and counts the promises it created; returns the count and `work`'s result. */
export function promisesMadeBy<T>(work: () => T): { made: number; result: T } {
  const count = new PromiseCount();
  try {
    const result = work();
    return { made: count.created, result };
  } finally {
    count.stop();
  }
}

/**
 * What `measure` counts per chunk of `pipe(count, seen)`: the difference between a run of 2 × {@link CHUNKS} chunks
 * and one of {@link CHUNKS}, so that what a pipe costs once (setting up, closing) cancels out. Checks that every
 * chunk arrived, in order (`pipe` pushes them onto `seen`).
 */
export async function perChunk(
  measure: (work: () => Promise<unknown>) => Promise<number>,
  pipe: (count: number, seen: unknown[]) => Promise<unknown>,
): Promise<number> {
  const counts: number[] = [];
  for (const count of [CHUNKS, 2 * CHUNKS]) {
    const seen: unknown[] = [];
    counts.push(await measure(() => pipe(count, seen)));
    expect(seen).toEqual(Array.from({ length: count }, (_, index) => index));
  }
  return ((counts[1] as number) - (counts[0] as number)) / CHUNKS;
}

/**
 * Promises per chunk of `loop(count)`: the difference between `loop(2 × count)` and `loop(count)`, divided by `count`,
 * so that what a loop costs once (setting up, closing) cancels out.
 */
export async function promisesPerChunkOf(loop: (count: number) => Promise<unknown>, count: number): Promise<number> {
  const once = await promisesCreatedBy(() => loop(count));
  const twice = await promisesCreatedBy(() => loop(2 * count));
  return (twice - once) / count;
}
