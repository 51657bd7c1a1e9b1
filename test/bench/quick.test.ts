/**
 * The benchmarks' quick mode, run with the tests: every scenario with tiny sizes, checking only that it runs and
 * that every variant's output is right (never anything about time). Scenarios 4 and 5 start local workerd.
 */
import { describe, expect, test } from "vitest";
import { runNumberPipeline } from "../../bench/scenarios/03-number-pipeline.ts";
import { runHttpIngest } from "../../bench/scenarios/04-http-ingest.ts";
import { runLoad } from "../../bench/scenarios/05-load.ts";
import { expectedTally, PIPE_SHAPES, shapeEntries, shapesFor } from "../../bench/support/chunk-pipe-shapes.ts";
import { CHUNK_SIZES, pumpCase, STREAM_CONFIGS } from "../../bench/support/draining-cases.ts";
import {
  classesOf,
  implementationsFor,
  NATIVE,
  type StreamsImplementation,
} from "../../bench/support/implementations.ts";
import type { ScenarioResult } from "../../bench/support/scenario-result.ts";

function expectAllChecksPass(result: ScenarioResult, expectedChecks: number): void {
  expect(result.checks.filter((check) => !check.ok)).toEqual([]);
  expect(result.checks).toHaveLength(expectedChecks);
  expect(result.rows.length).toBeGreaterThan(0);
}

describe("bench quick mode", () => {
  test("scenario 1: every shape moves every chunk with every implementation", async () => {
    for (const implementation of implementationsFor("node")) {
      for (const shape of shapesFor(implementation)) {
        expect(await shape.run(implementation, 2000), `${implementation.name}, ${shape.name}`).toEqual(
          expectedTally(2000),
        );
      }
    }
  });

  test("scenario 1: an implementation with the draining extension gets the extension shapes, against native", async () => {
    // A stand-in for drainpipe's extension path: native streams with a one-chunk readMany (native sinks ignore writev).
    const withExtension: StreamsImplementation = {
      name: "native with adapter",
      runtimes: ["node"],
      ...classesOf(globalThis),
      extension: {
        async readMany(reader) {
          const { done, value } = await reader.read();
          return { done, value: done ? [] : [value] };
        },
      },
    };
    const implementations = [...implementationsFor("node"), withExtension];
    for (const shape of PIPE_SHAPES.filter((candidate) => candidate.extension)) {
      const entries = shapeEntries(shape, implementations, NATIVE);
      expect(entries[0]!.implementation.name).toBe(NATIVE);
      expect(entries[0]!.runs.name).toBe(shape.standIn);
      expect(entries.map((entry) => entry.implementation.name)).toContain("native with adapter");
      for (const { implementation, runs } of entries)
        expect(await runs.run(implementation, 500)).toEqual(expectedTally(500));
    }
  });

  test("scenario 2: every case of the matrix delivers every byte with every implementation", async () => {
    for (const implementation of implementationsFor("node")) {
      for (const config of STREAM_CONFIGS) {
        for (const size of CHUNK_SIZES) {
          const count = await pumpCase(implementation, size, config);
          expect(count.bytes, `${implementation.name}, ${size.name} ${config.name}`).toBe(size.bytes * size.chunks);
          expect(count.writes).toBeGreaterThan(0);
        }
      }
    }
  });

  test("scenario 3: every variant of the number pipeline reproduces its input byte for byte", {
    timeout: 60_000,
  }, async () => {
    const result = await runNumberPipeline({ count: 20_000, runs: 1, maxPartBytes: 16 * 1024 });
    expectAllChecksPass(result, 5);
  });

  test("scenario 4: HTTP ingest stores exactly the body, in the bench worker and the real worker", {
    timeout: 120_000,
  }, async () => {
    const result = await runHttpIngest({ bytes: 300_000, runs: 1 });
    expectAllChecksPass(result, 6);
  });

  test("scenario 5: the load rows answer correctly and without errors", { timeout: 120_000 }, async () => {
    const result = await runLoad({ seconds: 1, connections: 2, bytes: 100_000 });
    expectAllChecksPass(result, 8);
  });
});
