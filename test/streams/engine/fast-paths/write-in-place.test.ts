import { describe, expect, test } from "vitest";
import * as drainpipe from "../../../../src/streams/index.ts";
import { QueueWithSizes } from "../../../../src/streams/standard/queue-with-sizes.ts";
import { native, ours, reasonOf, type Streams } from "../../against-node.ts";

/** What a sink does with chunk `at`: the chunks before and after it are written synchronously. */
type Act = (
  chunk: number,
  controller: WritableStreamDefaultController,
  abort: AbortController,
) => undefined | Promise<undefined>;

interface Options {
  /** The sink's strategy. */
  strategy?: QueuingStrategy<number>;
  /** Whether the pipe has an abort signal (the sink may abort it). */
  signal?: boolean;
  preventAbort?: boolean;
  preventCancel?: boolean;
}

/**
 * Pipes 0 … 5 from a source that enqueues one per pull into a sink that logs every call and acts on chunk `at`;
 * logs the pipe's settlement and how the sink's stream ended, and returns the log.
 */
async function run(streams: Streams, at: number, act: Act, options: Options = {}): Promise<string[]> {
  const log: string[] = [];
  const abort = new AbortController();
  let next = 0;
  const source = new streams.ReadableStream<number>({
    pull(controller) {
      log.push(`source.pull ${next}`);
      controller.enqueue(next++);
      if (next === 6) controller.close();
    },
    cancel(reason) {
      log.push(`source.cancel ${reasonOf(reason)}`);
    },
  });
  const sink = new streams.WritableStream<number>(
    {
      write(chunk, controller) {
        log.push(`sink.write ${chunk}`);
        return chunk === at ? act(chunk, controller, abort) : undefined;
      },
      close() {
        log.push("sink.close");
      },
      abort(reason) {
        log.push(`sink.abort ${reasonOf(reason)}`);
      },
    },
    options.strategy,
  );
  const piped = source.pipeTo(sink, {
    ...(options.signal ? { signal: abort.signal } : {}),
    preventAbort: options.preventAbort ?? false,
    preventCancel: options.preventCancel ?? false,
  });
  await piped.then(
    () => log.push("pipeTo fulfilled"),
    (reason: unknown) => log.push(`pipeTo rejected ${reasonOf(reason)}`),
  );
  const writer = sink.getWriter();
  writer.closed.then(
    () => log.push("sink closed"),
    (reason: unknown) => log.push(`sink errored ${reasonOf(reason)}`),
  );
  await new Promise((resolve) => setImmediate(resolve));
  log.push(`desiredSize ${writer.desiredSize}`);
  return log;
}

const acts: Record<string, Act> = {
  "writes synchronously": () => undefined,
  "errors its controller during the write": (_chunk, controller) => {
    controller.error(new Error("sink failed"));
    return undefined;
  },
  throws: () => {
    throw new Error("sink threw");
  },
  "completes later": () => Promise.resolve(undefined),
  "completes two turns later": () => Promise.resolve().then(() => undefined),
  "rejects later": () => Promise.reject(new Error("sink rejected")),
  "errors its controller, then completes later": (_chunk, controller) => {
    controller.error(new Error("sink failed"));
    return Promise.resolve(undefined);
  },
  "aborts the pipe's signal during the write": (_chunk, _controller, abort) => {
    abort.abort(new Error("stopped"));
    return undefined;
  },
};

const variants: Record<string, Options> = {
  "default strategy": {},
  "high-water mark 4, chunks of size 3": { strategy: { highWaterMark: 4, size: () => 3 } },
  "a signal, preventAbort and preventCancel": { signal: true, preventAbort: true, preventCancel: true },
  "a signal": { signal: true },
};

describe("piped writes made in place: the standard's outcome", () => {
  for (const [variant, options] of Object.entries(variants)) {
    for (const [name, act] of Object.entries(acts)) {
      if (name.includes("signal") && !options.signal) continue;
      test(`a sink that ${name}, ${variant}: its calls, the pipe's settlement and both ends are Node's`, async () => {
        // How far a pipe reads ahead of its writes is the implementation's (drainpipe's draining reads pull sooner
        // than Node's pipe), so the source's pulls are left out; everything else is compared in order.
        const withoutPulls = (log: string[]) => log.filter((line) => !line.startsWith("source.pull"));
        const expected = withoutPulls(await run(native, 2, act, options));
        const actual = withoutPulls(await run(ours, 2, act, options));
        expect(actual).toEqual(expected);
      });
    }
  }
});

describe("piped writes made in place: cost", () => {
  test("a sink that completes every write synchronously never has a chunk queued", async () => {
    const prototype = QueueWithSizes.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const enqueue = prototype.enqueue!;
    let queued = 0;
    prototype.enqueue = function (this: unknown, ...args: unknown[]) {
      queued++;
      return enqueue.apply(this, args);
    };
    const seen: number[] = [];
    try {
      let next = 0;
      await new drainpipe.ReadableStream<number>(
        {
          pull(controller) {
            controller.enqueue(next++);
            if (next === 100) controller.close();
          },
        },
        { highWaterMark: 0 },
      ).pipeTo(new drainpipe.WritableStream<number>({ write: (chunk) => void seen.push(chunk) }));
    } finally {
      prototype.enqueue = enqueue;
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, index) => index));
    expect(queued).toBe(0);
  });
});
