import { describe, expect, test } from "vitest";
import { implementationsFor } from "../implementations/registry.ts";
import { classesOf, NATIVE, type StreamsImplementation } from "../implementations/streams-implementation.ts";
import { expectedTally, PIPE_SHAPES, shapeEntries } from "../workloads/chunk-pipe-shapes.ts";

describe("shapeEntries", () => {
  test("an implementation with the draining extension gets the extension shapes, against native", async () => {
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
});
