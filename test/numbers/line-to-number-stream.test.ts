import { afterEach, describe, expect, test, vi } from "vitest";
import { LineToNumberStream } from "../../src/numbers/line-to-number-stream.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { NumberParseError } from "../../src/numbers/number-parse-error.ts";
import { ReadableStream, WritableStream } from "../../src/streams/index.ts";
import { QueueWithSizes } from "../../src/streams/standard/queue-with-sizes.ts";
import { ascii, collect, streamOf } from "./support.ts";

describe("LineToNumberStream", () => {
  test("emits one number per chunk, across input chunk boundaries", async () => {
    const stream = new LineToNumberStream();
    const numbers = await collect(streamOf([ascii("2\n3\n1"), ascii("1\n-13\r\n\n"), ascii("17")]).pipeThrough(stream));
    expect(numbers).toEqual([2, 3, 11, -13, 17]);
    expect(stream.stats).toEqual({ bytes: 15, lines: 6, numbers: 5, canonical: false });
  });

  test("emits nothing for an empty input", async () => {
    const stream = new LineToNumberStream();
    expect(await collect(streamOf([]).pipeThrough(stream))).toEqual([]);
    expect(stream.stats).toEqual({ bytes: 0, lines: 0, numbers: 0, canonical: true });
  });

  test("errors the stream with the NumberParseError", async () => {
    const stream = new LineToNumberStream();
    const reading = collect(streamOf([ascii("1\n2\n"), ascii("3\n4x\n")]).pipeThrough(stream));
    await expect(reading).rejects.toBeInstanceOf(NumberParseError);
    await expect(reading).rejects.toMatchObject({ reason: "unexpected-byte", line: 4, column: 2, offset: 7 });
  });

  test("errors the stream when the input ends in a lone '-'", async () => {
    const reading = collect(streamOf([ascii("1\n-")]).pipeThrough(new LineToNumberStream()));
    await expect(reading).rejects.toMatchObject({ reason: "lone-minus", line: 2, column: 1, byte: undefined });
  });

  test("cancels its source when parsing fails", async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(ascii("1\n+\n"));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    await expect(collect(source.pipeThrough(new LineToNumberStream()))).rejects.toBeInstanceOf(NumberParseError);
    expect(cancelled).toBeInstanceOf(NumberParseError);
  });
});

describe("LineToNumberStream releaseChunk", () => {
  test("hands every input chunk back once it is parsed, in order", async () => {
    const released: string[] = [];
    const chunks = [ascii("1\n2"), ascii("3\n"), ascii("4\n")];
    const stream = new LineToNumberStream({ releaseChunk: (chunk) => released.push(new TextDecoder().decode(chunk)) });
    expect(await collect(streamOf(chunks).pipeThrough(stream))).toEqual([1, 23, 4]);
    expect(released).toEqual(["1\n2", "3\n", "4\n"]);
  });

  describe("cost shape", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    test("a chunk's numbers enter the readable side's queue in one range operation, not one call each", async () => {
      const CHUNKS = 6;
      const PER_CHUNK = 2000;
      const values = Array.from({ length: CHUNKS * PER_CHUNK }, (_, i) => i * 7 + 1);
      const chunks = Array.from({ length: CHUNKS }, (_, k) =>
        encodeNumbers(values.slice(k * PER_CHUNK, (k + 1) * PER_CHUNK)),
      );
      const enqueueUnit = vi.spyOn(QueueWithSizes.prototype, "enqueueUnit");
      const enqueueUnitsFrom = vi.spyOn(QueueWithSizes.prototype, "enqueueUnitsFrom");
      const received: number[] = [];
      const sink = new WritableStream<number>(
        {
          write(chunk) {
            received.push(chunk);
          },
          writev(batch) {
            received.push(...batch);
          },
        },
        { highWaterMark: 65_536 },
      );
      await streamOf(chunks).pipeThrough(new LineToNumberStream()).pipeTo(sink);
      expect(received).toEqual(values);
      expect(enqueueUnit.mock.calls.length + enqueueUnitsFrom.mock.calls.length).toBeLessThanOrEqual(3 * CHUNKS);
    });
  });
});
