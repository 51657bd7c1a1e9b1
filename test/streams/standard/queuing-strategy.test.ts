import { describe, expect, test } from "vitest";
import { ReadableStream, TransformStream } from "../../../src/streams/index.ts";
import { isCountOne } from "../../../src/streams/standard/queuing-strategy.ts";

/** The size algorithm a stream's default controller was set up with (an internal slot). */
function sizeAlgorithmOf(stream: object): unknown {
  return (stream as unknown as { _readableStreamController: { _strategySizeAlgorithm: unknown } })
    ._readableStreamController._strategySizeAlgorithm;
}

describe("the default size algorithm", () => {
  // Hot paths skip the size call only for the shared default (isCountOne compares identity): streams the library
  // creates itself must get that one, not a fresh `() => 1`, or every enqueue into them calls it.
  test("streams made by ReadableStream.from, tee and TransformStream count chunks with the shared default", () => {
    const [branch1, branch2] = new ReadableStream({}).tee();
    const made = [ReadableStream.from([1, 2]), branch1, branch2, new TransformStream().readable];
    for (const stream of made) expect(isCountOne(sizeAlgorithmOf(stream) as () => number)).toBe(true);
  });

  test("a strategy's own size function is kept", () => {
    const stream = new ReadableStream({}, { size: () => 2 });
    expect(isCountOne(sizeAlgorithmOf(stream) as () => number)).toBe(false);
  });
});
