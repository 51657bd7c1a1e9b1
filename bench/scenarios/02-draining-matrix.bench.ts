/**
 * The benchmarks of scenario 2 (registered and run by `02-draining-matrix.ts`): the matrix of the workerd
 * draining-read PR (four chunk sizes × value/byte streams × highWaterMark 0 and 16 KiB, and byte streams with
 * autoAllocateChunkSize 64 KiB), each stream pumped with `pipeTo` into a discarding sink, for every
 * implementation of `bench/implementations/registry.ts`, in Node and inside workerd. A sample pumps the case's stream
 * `repsPerSample` times, so it lasts tens of milliseconds even where the timer has 1 ms steps. `02-draining-matrix.ts`
 * runs this file once per implementation (`benchImplementation`), so no call site is shared between implementations.
 *
 * @module
 */
import { inject, test } from "vitest";
import { resultPath, TEST_TIMEOUT_MS } from "../harness/bench-files.ts";
import { implementationsFor } from "../implementations/registry.ts";
import { currentRuntime } from "../implementations/streams-implementation.ts";
import { CHUNK_SIZES, pumpCase, repsPerSample, STREAM_CONFIGS } from "./02-draining-matrix.cases.ts";

const quick = inject("benchQuick");
const only = inject("benchImplementation");
const implementations = implementationsFor(currentRuntime()).filter(
  (implementation) => only === "" || implementation.name === only,
);

for (const config of STREAM_CONFIGS) {
  for (const size of CHUNK_SIZES) {
    const group = `${size.name} ${config.name}`;
    const reps = repsPerSample(size, quick);
    test(`draining matrix: ${group} (${size.bytes} B × ${size.chunks}, ${reps} streams per sample)`, {
      timeout: TEST_TIMEOUT_MS,
    }, async ({ bench, expect }) => {
      for (const implementation of implementations) {
        const count = await pumpCase(implementation, size, config);
        expect(count.bytes, implementation.name).toBe(size.bytes * size.chunks);
      }
      for (const implementation of implementations) {
        const options = { writeResult: resultPath("draining-matrix", group, implementation.name) };
        await bench(implementation.name, options, async () => {
          for (let rep = 0; rep < reps; rep++) await pumpCase(implementation, size, config);
        }).run({ iterations: quick ? 1 : 5, time: 0, warmupIterations: 1, warmupTime: 0 });
      }
    });
  }
}
