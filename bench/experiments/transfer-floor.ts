/**
 * The floor under enqueueing fresh small chunks into a byte stream (`controller.enqueue(new Uint8Array(100))`) on
 * this runtime: what the standard makes every conformant implementation do per chunk beyond allocating it.
 * ReadableByteStreamControllerEnqueue takes the chunk's buffer, detaches it by TransferArrayBuffer, and a read then
 * gets a new `Uint8Array` over the transferred buffer. Each loop (a function of its own, so no call site is shared
 * between them) adds one of those steps to the one before:
 *
 * - `allocate`: `new Uint8Array(100)` alone, what a source pays anyway;
 * - `reachBuffer`: plus `view.buffer` (JavaScriptCore makes the `ArrayBuffer` of a small typed array only when asked
 *   for it, so this step costs there what the allocation does in V8);
 * - `transfer`: plus `ArrayBuffer.prototype.transfer()`;
 * - `transferAndView`: plus the read's view over the transferred buffer;
 * - `structuredCloneTransfer`: the same with `structuredClone(buffer, { transfer: [buffer] })` in place of
 *   `transfer()`, the only way to detach a buffer where `transfer` is missing (Node 20; drainpipe's
 *   `transferArrayBuffer` falls back to it there).
 *
 * Run: `npm run bench:floors` (this floor and `promise-floor.ts`, in Node); in the other runtimes
 * `node_modules/.bin/bun bench/experiments/transfer-floor.ts` and
 * `node_modules/.bin/deno run bench/experiments/transfer-floor.ts`. Prints ns per chunk (best and median of 7 runs of
 * 200,000 chunks) for each loop, to set beside scenario 10's byte-stream rows.
 *
 * @module
 */
import { performance } from "node:perf_hooks";

const CHUNKS = 200_000;
const RUNS = 7;
const SIZE = 100;

interface WithTransfer {
  transfer?: () => ArrayBuffer;
}

/** `buffer.transfer()` where the runtime has it. */
const transfer = (ArrayBuffer.prototype as WithTransfer).transfer;

/** One loop over `CHUNKS` chunks, each with its own call sites, returning the sum of the lengths it saw. */
type Loop = () => number;

function allocate(): number {
  let sum = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) sum += new Uint8Array(SIZE).length;
  return sum;
}

function reachBuffer(): number {
  let sum = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) sum += new Uint8Array(SIZE).buffer.byteLength;
  return sum;
}

function transferOnly(detach: (this: ArrayBuffer) => ArrayBuffer): number {
  let sum = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) sum += detach.call(new Uint8Array(SIZE).buffer).byteLength;
  return sum;
}

function transferAndView(detach: (this: ArrayBuffer) => ArrayBuffer): number {
  let sum = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    sum += new Uint8Array(detach.call(new Uint8Array(SIZE).buffer), 0, SIZE).length;
  }
  return sum;
}

function structuredCloneTransfer(): number {
  let sum = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const buffer = new Uint8Array(SIZE).buffer;
    sum += new Uint8Array(structuredClone(buffer, { transfer: [buffer] }), 0, SIZE).length;
  }
  return sum;
}

const LOOPS: [string, Loop][] = [
  ["allocate", allocate],
  ["reachBuffer", reachBuffer],
  ...(transfer === undefined
    ? []
    : ([
        ["transfer", () => transferOnly(transfer)],
        ["transferAndView", () => transferAndView(transfer)],
      ] as [string, Loop][])),
  ["structuredCloneTransfer", structuredCloneTransfer],
];

for (const [name, loop] of LOOPS) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const sum = loop();
    times.push(performance.now() - start);
    if (sum !== CHUNKS * SIZE) throw new Error(`Cannot trust ${name}: wrong sum ${sum}`);
  }
  times.sort((a, b) => a - b);
  const perChunk = (ms: number): string => `${((ms / CHUNKS) * 1e6).toFixed(0)} ns`;
  console.log(
    `${name}: best ${perChunk(times[0] as number)}, median ${perChunk(times[RUNS >> 1] as number)} per chunk`,
  );
}
