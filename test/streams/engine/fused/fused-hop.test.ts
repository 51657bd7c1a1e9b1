import { describe, expect, test } from "vitest";
import * as drainpipe from "../../../../src/streams/index.ts";
import { QueueWithSizes } from "../../../../src/streams/standard/queue-with-sizes.ts";
import { native, ours, reasonOf, type Streams } from "../../against-node.ts";
import { perChunk, promisesCreatedBy } from "../../pipe-cost.ts";

/** A source of 0 … `count` − 1, one number per pull. */
function numbers(streams: Streams, count: number): ReadableStream<number> {
  let next = 0;
  return new streams.ReadableStream<number>({
    pull(controller) {
      controller.enqueue(next++);
      if (next === count) controller.close();
    },
  });
}

/** A sink collecting what it receives, synchronously. */
function collecting(streams: Streams, seen: unknown[]): WritableStream<unknown> {
  return new streams.WritableStream({
    write(chunk) {
      seen.push(chunk);
    },
  });
}

function identity(streams: Streams): TransformStream<number, number> {
  return new streams.TransformStream<number, number>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
  });
}

/** Queue entries made while `work` runs, over every stream (each chunk a source or a side queues counts 1). */
async function queueEntriesMadeBy(work: () => Promise<unknown>): Promise<number> {
  const prototype = QueueWithSizes.prototype;
  const { enqueue, enqueueUnit, enqueueUnits } = prototype;
  let entries = 0;
  prototype.enqueue = function (this: QueueWithSizes<unknown>, value: unknown, size: number) {
    entries += 1;
    return enqueue.call(this, value, size);
  };
  prototype.enqueueUnit = function (this: QueueWithSizes<unknown>, value: unknown) {
    entries += 1;
    return enqueueUnit.call(this, value);
  };
  prototype.enqueueUnits = function (this: QueueWithSizes<unknown>, values: unknown[]) {
    entries += values.length;
    return enqueueUnits.call(this, values);
  };
  try {
    await work();
  } finally {
    Object.assign(prototype, { enqueue, enqueueUnit, enqueueUnits });
  }
  return entries;
}

/** Source → three identity transforms → sink; with `signal`, every pipe has one (which keeps pipes unfused). */
function threeTransforms(count: number, seen: unknown[], signal?: AbortSignal): Promise<unknown> {
  const options = signal === undefined ? {} : { signal };
  return numbers(ours, count)
    .pipeThrough(identity(ours), options)
    .pipeThrough(identity(ours), options)
    .pipeThrough(identity(ours), options)
    .pipeTo(collecting(ours, seen), options);
}

describe("fused pipe chains: cost shapes", () => {
  test("three synchronous transforms: no promise and no queue step per hop, per chunk", async () => {
    expect(await perChunk(promisesCreatedBy, (count, seen) => threeTransforms(count, seen))).toBeLessThan(0.01);
    // The source's queue only, whatever the number of transforms between: the sink takes each chunk in place.
    expect(await perChunk(queueEntriesMadeBy, (count, seen) => threeTransforms(count, seen))).toBeLessThanOrEqual(1);
  });

  test("into a writev sink: batches as large as the sink's high-water mark, at most a promise per batch", async () => {
    const batches: number[] = [];
    const writevSink = (seen: unknown[]) =>
      new drainpipe.WritableStream<number>(
        {
          write(chunk) {
            batches.push(1);
            seen.push(chunk);
          },
          writev(chunks) {
            batches.push(chunks.length);
            seen.push(...chunks);
          },
        },
        { highWaterMark: 64 },
      );
    const chain = (count: number, seen: unknown[]) =>
      numbers(ours, count)
        .pipeThrough(identity(ours))
        .pipeThrough(identity(ours))
        .pipeThrough(identity(ours))
        .pipeTo(writevSink(seen) as unknown as WritableStream<number>);
    // At most one promise per batch (the microtask that writes a batch the chain left unfilled).
    expect(await perChunk(promisesCreatedBy, chain)).toBeLessThanOrEqual(1 / 64);
    batches.length = 0;
    const seen: unknown[] = [];
    await chain(1000, seen);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, index) => index));
    // 15 full batches of 64, then the 40 left, flushed when the source closes.
    expect(batches).toEqual([...Array.from({ length: 15 }, () => 64), 40]);
  });

  test("into a writev sink of high-water mark 1: one chunk at a time, as the sink's backpressure asks", async () => {
    const sizes: number[] = [];
    const sink = new drainpipe.WritableStream<number>({
      write() {
        sizes.push(1);
      },
      writev(chunks) {
        sizes.push(chunks.length);
      },
    });
    await numbers(ours, 100)
      .pipeThrough(identity(ours))
      .pipeTo(sink as unknown as WritableStream<number>);
    expect(sizes).toEqual(Array.from({ length: 100 }, () => 1));
  });

  test("pipes with an abort signal are not fused: each transform's readable side queues every chunk", async () => {
    const signal = new AbortController().signal;
    const entries = await perChunk(queueEntriesMadeBy, (count, seen) => threeTransforms(count, seen, signal));
    // The source's queue and the three readable sides (fused, it would be the source's alone); the sink's stays empty:
    // each chunk reaches the idle sink in place (see write-with-request.ts).
    expect(entries).toBeGreaterThanOrEqual(4);
  });
});

/** A log of what a chain's callbacks saw and how it ended, to compare drainpipe with Node's streams. */
type Scenario = (streams: Streams, log: string[]) => Promise<void>;

async function outcome(streams: Streams, scenario: Scenario): Promise<string[]> {
  const log: string[] = [];
  await scenario(streams, log);
  await new Promise((resolve) => setImmediate(resolve));
  return log;
}

async function settle(log: string[], name: string, promise: Promise<unknown>): Promise<void> {
  await promise.then(
    () => log.push(`${name} fulfilled`),
    (reason: unknown) => log.push(`${name} rejected ${reasonOf(reason)}`),
  );
}

/** A transformer that logs what it sees and acts on chunk `at` with `act`. */
function acting(
  streams: Streams,
  log: string[],
  name: string,
  at: number,
  act: (chunk: number, controller: TransformStreamDefaultController<number>) => undefined | Promise<void>,
): TransformStream<number, number> {
  // `cancel` is newer than TypeScript's DOM declarations of Transformer.
  const transformer: Transformer<number, number> & { cancel(reason: unknown): void } = {
    transform(chunk, controller) {
      log.push(`${name}.transform ${chunk} ds=${controller.desiredSize}`);
      if (chunk === at) return act(chunk, controller);
      controller.enqueue(chunk);
      log.push(`${name} ds=${controller.desiredSize}`);
      return undefined;
    },
    flush() {
      log.push(`${name}.flush`);
    },
    cancel(reason) {
      log.push(`${name}.cancel ${reasonOf(reason)}`);
    },
  };
  return new streams.TransformStream<number, number>(transformer);
}

/**
 * A chain of three: `middle` between two identity transforms, from a counting source into a collecting sink. With
 * `batched`, the sink has a high-water mark of 4 and, in drainpipe, a `writev` that logs each chunk as the write it
 * stands for (the chunks it receives, in order, are then comparable with Node's writes).
 */
function chainAround(
  middle: (streams: Streams, log: string[]) => TransformStream<number, number>,
  batched = false,
): Scenario {
  return async (streams, log) => {
    let next = 0;
    const source = new streams.ReadableStream<number>({
      pull(controller) {
        controller.enqueue(next++);
        if (next === 6) controller.close();
      },
      cancel(reason) {
        log.push(`source.cancel ${reasonOf(reason)}`);
      },
    });
    const underlyingSink: UnderlyingSink<number> & { writev?(chunks: number[]): void } = {
      write(chunk) {
        log.push(`sink.write ${chunk}`);
      },
      close() {
        log.push("sink.close");
      },
      abort(reason) {
        log.push(`sink.abort ${reasonOf(reason)}`);
      },
    };
    if (batched && streams === ours) {
      underlyingSink.writev = (chunks) => {
        for (const chunk of chunks) log.push(`sink.write ${chunk}`);
      };
    }
    const sink = new streams.WritableStream<number>(underlyingSink, batched ? { highWaterMark: 4 } : undefined);
    const piped = source
      .pipeThrough(acting(streams, log, "first", -1, () => undefined))
      .pipeThrough(middle(streams, log))
      .pipeThrough(acting(streams, log, "last", -1, () => undefined))
      .pipeTo(sink);
    await settle(log, "pipeTo", piped);
  };
}

/** Each callback's calls in order, per callback object (the standard fixes those; not the interleaving between). */
function perParty(log: string[]): Record<string, string[]> {
  const parties: Record<string, string[]> = {};
  for (const line of log) {
    const party = /^(\w+)[. ]/.exec(line)?.[1] ?? "other";
    parties[party] = [...(parties[party] ?? []), line];
  }
  return parties;
}

describe("fused pipe chains: the standard's outcome where a hop cannot stay fused", () => {
  const middles: Record<string, (streams: Streams, log: string[]) => TransformStream<number, number>> = {
    "a transformer enqueues two chunks for one": (streams, log) =>
      acting(streams, log, "middle", 2, (chunk, controller) => {
        controller.enqueue(chunk);
        log.push(`middle ds=${controller.desiredSize}`);
        controller.enqueue(chunk + 100);
        log.push(`middle ds=${controller.desiredSize}`);
      }),
    "a transformer enqueues nothing for a chunk": (streams, log) => acting(streams, log, "middle", 2, () => undefined),
    "a transformer terminates the stream": (streams, log) =>
      acting(streams, log, "middle", 3, (chunk, controller) => {
        controller.enqueue(chunk);
        controller.terminate();
      }),
    "a transformer errors the stream after enqueueing": (streams, log) =>
      acting(streams, log, "middle", 3, (chunk, controller) => {
        controller.enqueue(chunk);
        controller.error(new Error("middle failed"));
      }),
    "a transformer throws": (streams, log) =>
      acting(streams, log, "middle", 3, () => {
        throw new Error("middle threw");
      }),
    "a transformer completes later": (streams, log) =>
      acting(streams, log, "middle", 2, async (chunk, controller) => {
        await Promise.resolve();
        controller.enqueue(chunk);
        log.push(`middle later ds=${controller.desiredSize}`);
      }),
    "a transformer rejects later": (streams, log) =>
      acting(streams, log, "middle", 2, async () => {
        await Promise.resolve();
        throw new Error("middle rejected");
      }),
  };
  for (const [name, middle] of Object.entries(middles)) {
    test(`${name}: each party's calls and the pipe's settlement are Node's`, async () => {
      const scenario = chainAround(middle);
      const expected = perParty(await outcome(native, scenario));
      const actual = perParty(await outcome(ours, scenario));
      expect(actual).toEqual(expected);
    });
  }

  for (const [name, middle] of Object.entries(middles)) {
    test(`${name}, into a writev sink that batches: the chunks it gets and each party's calls are Node's`, async () => {
      const scenario = chainAround(middle, true);
      const expected = perParty(await outcome(native, scenario));
      const actual = perParty(await outcome(ours, scenario));
      expect(actual).toEqual(expected);
    });
  }

  test("a transformer sees desiredSize 0, then 0 after one enqueue and -1 after a second, as in Node", async () => {
    const scenario: Scenario = async (streams, log) => {
      const piped = numbers(streams, 3)
        .pipeThrough(identity(streams))
        .pipeThrough(
          new streams.TransformStream<number, number>({
            transform(chunk, controller) {
              log.push(`before ${chunk}: ${controller.desiredSize}`);
              controller.enqueue(chunk);
              log.push(`after one: ${controller.desiredSize}`);
              controller.enqueue(chunk);
              log.push(`after two: ${controller.desiredSize}`);
            },
          }),
        )
        .pipeTo(collecting(streams, []));
      await settle(log, "pipeTo", piped);
    };
    const expected = await outcome(native, scenario);
    expect(expected).toContain("after two: -1");
    expect(await outcome(ours, scenario)).toEqual(expected);
  });
});
