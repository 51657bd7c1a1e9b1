import { describe, expect, test } from "vitest";
import { transformStreamDefaultControllerEnqueueEach } from "../../../../src/streams/engine/fast-paths/enqueue-each.ts";
import {
  ReadableStream,
  TransformStream,
  type TransformStreamDefaultController,
  WritableStream,
} from "../../../../src/streams/index.ts";

/** How a transformer enqueues a batch: a loop of `enqueue` calls, or the range operation under test. */
type Enqueue = (controller: TransformStreamDefaultController<number>, batch: readonly number[]) => void;

const loop: Enqueue = (controller, batch) => {
  for (const value of batch) controller.enqueue(value);
};
const each: Enqueue = (controller, batch) =>
  transformStreamDefaultControllerEnqueueEach(controller, batch, 0, batch.length);

/** One run of a transform stream fed `batches`, logging everything observable, in order. */
type Scenario = (enqueue: Enqueue, log: unknown[]) => Promise<void>;

/** Lets every pending microtask and timer run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A transform stream whose transformer enqueues each batch with `enqueue`, then logs its desired size. */
function counting(
  enqueue: Enqueue,
  log: unknown[],
  readableStrategy?: QueuingStrategy<number>,
): TransformStream<number[], number> {
  return new TransformStream<number[], number>(
    {
      transform(batch, controller) {
        enqueue(controller as TransformStreamDefaultController<number>, batch);
        log.push(["desiredSize", controller.desiredSize]);
      },
    },
    undefined,
    readableStrategy,
  );
}

const scenarios: Record<string, Scenario> = {
  "reads waiting before the batch, then more reads": async (enqueue, log) => {
    const stream = counting(enqueue, log);
    const reader = stream.readable.getReader();
    const reads = [reader.read(), reader.read()].map((read) => read.then((result) => log.push(["read", result])));
    const writer = stream.writable.getWriter();
    const written = writer.write([1, 2, 3, 4, 5]).then(() => log.push("written"));
    await settle();
    for (let k = 0; k < 3; k++) log.push(["read", await reader.read()]);
    await Promise.all([...reads, written]);
  },
  "a readable side with room (high-water mark 3, pulls due)": async (enqueue, log) => {
    const stream = counting(enqueue, log, { highWaterMark: 3 });
    const writer = stream.writable.getWriter();
    log.push(["ready", await writer.ready.then(() => writer.desiredSize)]);
    void writer.write([1, 2]).then(() => log.push("first written"));
    void writer.write([3, 4, 5, 6]).then(() => log.push("second written"));
    await settle();
    const reader = stream.readable.getReader();
    for (let k = 0; k < 6; k++) log.push(["read", await reader.read(), writer.desiredSize]);
  },
  "a size algorithm that runs code": async (enqueue, log) => {
    const stream = counting(enqueue, log, {
      highWaterMark: 2,
      size(chunk) {
        log.push(["size", chunk]);
        return 1;
      },
    });
    const writer = stream.writable.getWriter();
    void writer.write([7, 8, 9]);
    await settle();
    const reader = stream.readable.getReader();
    for (let k = 0; k < 3; k++) log.push(["read", await reader.read()]);
  },
  "a stream terminated by its transformer before the batch": async (enqueue, log) => {
    const stream = new TransformStream<number[], number>({
      transform(batch, controller) {
        controller.terminate();
        try {
          enqueue(controller as TransformStreamDefaultController<number>, batch);
        } catch (error) {
          log.push(["threw", String(error)]);
        }
      },
    });
    const read = stream.readable
      .getReader()
      .read()
      .then((result) => log.push(["read", result]));
    const writer = stream.writable.getWriter();
    await writer.write([1, 2]).then(
      () => log.push("written"),
      (error: unknown) => log.push(["write rejected", String(error)]),
    );
    await read;
  },
  "piped from a source and into a writev sink": async (enqueue, log) => {
    let sent = 0;
    const source = new ReadableStream<number[]>({
      pull(controller) {
        controller.enqueue(Array.from({ length: 1 + sent * 3 }, (_, k) => sent * 100 + k));
        sent += 1;
        if (sent === 6) controller.close();
      },
    });
    const sink = new WritableStream<number>(
      {
        write(chunk) {
          log.push(["write", chunk]);
        },
        writev(chunks) {
          log.push(["writev", [...chunks]]);
        },
      },
      { highWaterMark: 4 },
    );
    await source.pipeThrough(counting(enqueue, log)).pipeTo(sink);
    log.push("piped");
  },
};

describe("transformStreamDefaultControllerEnqueueEach", () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    test(`does what a loop of enqueue calls does: ${name}`, async () => {
      const expected: unknown[] = [];
      await scenario(loop, expected);
      const actual: unknown[] = [];
      await scenario(each, actual);
      expect(actual).toEqual(expected);
      expect(actual.length).toBeGreaterThan(2);
    });
  }
});
