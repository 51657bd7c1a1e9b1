/**
 * The floor under a reader loop (`for (;;) { const { done, value } = await reader.read(); … }`) on this runtime: a
 * loop that awaits a promise already resolved with a fresh `{ value, done }` per item, the least any `read()`
 * that returns a promise can cost, and the same loop with one more promise reaction per item, which is what
 * the standard adds when the source's `pull` completes synchronously: ReadableStreamDefaultControllerCallPullIfNeeded
 * reacts to the pull's promise, and only that reaction (a microtask later) lets the next pull start.
 *
 * A third loop, `awaitPendingAndReaction`, is the floor of scenario 1's reader loop as the standard runs it.
 * There the loop's first `read()` comes before the stream has started, so it waits; from then on every chunk is
 * enqueued by a pull that runs in the reaction to the previous pull, after the loop has already asked for the chunk,
 * and every `read()` returns a pending promise that the pull settles. So the loop costs a new pending promise (with
 * its resolving functions) per item, settled from the reaction, where the first two loops await a promise that is
 * already fulfilled. It is also the floor of a writer loop that awaits every write into a synchronous sink
 * (`await writer.write(chunk)`): each write's promise is pending until the reaction to the sink's completion
 * (WritableStreamDefaultControllerProcessWrite) settles it.
 *
 * A fourth, `reactionChain`, awaits nothing: one reaction per item, the floor of a pipe whose source enqueues one
 * chunk per pull.
 *
 * Run: `npm run bench:floors` (this floor and `transfer-floor.ts`, in Node); in the other runtimes
 * `node_modules/.bin/bun bench/experiments/promise-floor.ts` and
 * `node_modules/.bin/deno run bench/experiments/promise-floor.ts`. Prints items/s (median and best of 7 runs of
 * 1,000,000 items) for each loop, to set beside scenario 1's reader loop rows.
 *
 * @module
 */
import { performance } from "node:perf_hooks";

const ITEMS = 1_000_000;
const RUNS = 7;

/** One awaited, already resolved result per item. */
async function awaitOnly(): Promise<number> {
  let sum = 0;
  for (let i = 0; i < ITEMS; i++) {
    const result = await Promise.resolve({ value: i, done: false });
    sum += result.value;
  }
  return sum;
}

/** The same, plus one promise reaction per item, as a synchronous pull's completion costs. */
async function awaitAndReaction(): Promise<number> {
  const settled = Promise.resolve();
  const reaction = (): void => {};
  let sum = 0;
  for (let i = 0; i < ITEMS; i++) {
    settled.then(reaction);
    const result = await Promise.resolve({ value: i, done: false });
    sum += result.value;
  }
  return sum;
}

/**
 * A pending promise per item, fulfilled with a fresh `{ value, done }` by the reaction, as a `read()` that waits for
 * the next pull is.
 */
async function awaitPendingAndReaction(): Promise<number> {
  const settled = Promise.resolve();
  let resolveRead: (result: { value: number; done: boolean }) => void = () => {};
  let i = 0;
  const reaction = (): void => {
    resolveRead({ value: i, done: false });
  };
  let sum = 0;
  for (; i < ITEMS; i++) {
    const read = new Promise<{ value: number; done: boolean }>((resolve) => {
      resolveRead = resolve;
    });
    settled.then(reaction);
    const result = await read;
    sum += result.value;
  }
  return sum;
}

/**
 * One promise reaction per item and nothing awaited: the floor of a pipe (`pipeTo`, fused or not) from a source
 * that enqueues one chunk per `pull`, where each pull may start only in the reaction to the one before.
 */
function reactionChain(): Promise<number> {
  const settled = Promise.resolve();
  return new Promise((done) => {
    let i = 0;
    let sum = 0;
    const pull = (): void => {
      sum += i;
      if (++i < ITEMS) settled.then(pull);
      else done(sum);
    };
    pull();
  });
}

for (const loop of [awaitOnly, awaitAndReaction, awaitPendingAndReaction, reactionChain]) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    if ((await loop()) !== (ITEMS * (ITEMS - 1)) / 2) throw new Error(`Cannot trust ${loop.name}: wrong sum`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const perSecond = (ms: number): string =>
    `${((ITEMS / ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })}/s`;
  console.log(`${loop.name}: median ${perSecond(times[RUNS >> 1] as number)}, best ${perSecond(times[0] as number)}`);
}
