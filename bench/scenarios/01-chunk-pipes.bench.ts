/**
 * The benchmarks of scenario 1 (registered and run by `01-chunk-pipes.ts`): per-chunk pipes of small value
 * chunks (`pipeTo`, a reader loop, one `TransformStream`, `for await`, and the draining shapes for
 * implementations with the extension), for every implementation of `bench/implementations/registry.ts`, in Node
 * and inside workerd (chunks per sample: see `chunkCount`). `01-chunk-pipes.ts` runs this file once per
 * implementation (`benchImplementation`), so no call site of the shapes is shared between implementations.
 *
 * @module
 */
import { inject, test } from "vitest";
import { resultPath, TEST_TIMEOUT_MS } from "../harness/bench-files.ts";
import { implementationsFor } from "../implementations/registry.ts";
import { currentRuntime, NATIVE } from "../implementations/streams-implementation.ts";
import { chunkCount, expectedTally, PIPE_SHAPES, sampling, shapeEntries } from "../workloads/chunk-pipe-shapes.ts";

const runtime = currentRuntime();
const quick = inject("benchQuick");
const only = inject("benchImplementation");
const COUNT = chunkCount(runtime, quick);
const EXPECTED = expectedTally(COUNT);
const implementations = implementationsFor(runtime);
const { samples, warmups } = sampling(quick);

for (const shape of PIPE_SHAPES) {
  const compared = shapeEntries(shape, implementations, NATIVE);
  if (compared.length < 2) continue;
  const entries = compared.filter(({ implementation }) => only === "" || implementation.name === only);
  if (entries.length === 0) continue;
  test(`chunk pipes: ${shape.name} (${COUNT} chunks)`, { timeout: TEST_TIMEOUT_MS }, async ({ bench, expect }) => {
    for (const { implementation, runs } of entries) {
      expect(await runs.run(implementation, 1000), implementation.name).toEqual(expectedTally(1000));
    }
    for (const { implementation, runs } of entries) {
      await bench(
        implementation.name,
        { writeResult: resultPath("chunk-pipes", shape.name, implementation.name) },
        async () => {
          const tally = await runs.run(implementation, COUNT);
          if (tally.count !== EXPECTED.count || tally.sum !== EXPECTED.sum)
            throw new Error(`Cannot trust the run: ${tally.count} chunks summing to ${tally.sum} arrived of ${COUNT}`);
        },
      ).run({ iterations: samples, time: 0, warmupIterations: warmups, warmupTime: 0 });
    }
  });
}
