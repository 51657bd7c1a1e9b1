/**
 * The streams bugs of issue 21 as runnable cases, shared by the Node test (`issue-21.test.ts`) and the workerd
 * test (`issue-21.workerd.test.ts`). Each case builds its streams from drainpipe, records what happens in order,
 * and returns the record once every promise job has run (a macrotask later), so a pipe that never settles shows
 * up as a missing entry rather than as a hang.
 * @module
 */

import { ReadableStream, TransformStream, WritableStream } from "../../../src/streams/index.ts";

/** One regression case: what it reproduces, how to run it, and the record the standard gives. */
export interface RegressionCase {
  /** What the case checks. */
  name: string;
  /** Runs the case; resolves with the events in the order they happened. */
  run(): Promise<string[]>;
  /** The events the standard's steps produce. */
  expected: string[];
}

/** Resolves after every queued promise job has run. */
function afterJobs(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A source whose `pull` enqueues one chunk and then errors the stream, and a sink that records writes and aborts. */
async function enqueueThenError(highWaterMark: number): Promise<string[]> {
  const log: string[] = [];
  const source = new ReadableStream<string>(
    {
      pull(controller) {
        log.push("pull");
        controller.enqueue("a");
        controller.error("E");
      },
    },
    { highWaterMark },
  );
  const sink = new WritableStream<string>({
    write(chunk) {
      log.push(`write ${chunk}`);
    },
    abort(reason) {
      log.push(`abort ${String(reason)}`);
    },
  });
  source.pipeTo(sink).then(
    () => log.push("pipe fulfilled"),
    (error: unknown) => log.push(`pipe rejected ${String(error)}`),
  );
  await afterJobs();
  return log;
}

/** A pipe through a transform that enqueues then errors, into a sink whose `write` throws. */
async function transformErrorsIntoThrowingSink(): Promise<string[]> {
  const log: string[] = [];
  let cancelReason = "none";
  const source = new ReadableStream<string>(
    {
      pull(controller) {
        log.push("pull");
        controller.enqueue("a");
      },
      cancel(reason) {
        cancelReason = String(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const transform = new TransformStream<string, string>({
    transform(chunk, controller) {
      log.push(`transform ${chunk}`);
      controller.enqueue(chunk);
      controller.error("E");
    },
  });
  const sink = new WritableStream<string>({
    write(chunk) {
      log.push(`write ${chunk}`);
      throw "W";
    },
  });
  source
    .pipeThrough(transform)
    .pipeTo(sink)
    .then(
      () => log.push("pipe fulfilled"),
      (error: unknown) => log.push(`pipe rejected ${String(error)}`),
    );
  await afterJobs();
  const streams = [source, transform.writable, transform.readable, sink];
  log.push(`source cancelled: ${cancelReason}`, `locked: ${streams.map((stream) => stream.locked).join(" ")}`);
  return log;
}

/** `terminate()` with a chunk still queued on the readable side, then the readable side cancelled. */
async function cancelAfterTerminate(): Promise<string[]> {
  const log: string[] = [];
  const transform = new TransformStream<string, string>(
    {
      transform(chunk, controller) {
        controller.enqueue(chunk);
        controller.terminate();
      },
      cancel(reason) {
        log.push(`transformer cancel ${String(reason)}`);
      },
    },
    undefined,
    { highWaterMark: 4 },
  );
  const writer = transform.writable.getWriter();
  await writer.write("a");
  log.push(`readable locked: ${transform.readable.locked}`);
  transform.readable.cancel("C").then(
    () => log.push("cancel fulfilled"),
    (error: unknown) => log.push(`cancel rejected ${String(error)}`),
  );
  writer.closed.catch((error: unknown) => log.push(`writer closed rejected ${(error as Error).name}`));
  await afterJobs();
  return log;
}

/** A byte stream teed, whose async `pull` enqueues only the first time; branch B reads twice. */
async function byteTeePulls(): Promise<string[]> {
  const log: string[] = [];
  let pulls = 0;
  const source = new ReadableStream<Uint8Array>(
    {
      type: "bytes",
      async pull(controller) {
        pulls += 1;
        log.push(`pull ${pulls}`);
        await null;
        if (pulls === 1) controller.enqueue(new Uint8Array([1]));
      },
    },
    { highWaterMark: 1 },
  );
  const [, branchB] = source.tee();
  const reader = branchB.getReader();
  const first = await reader.read();
  log.push(`read ${first.done ? "done" : Array.from(first.value).join(",")}`);
  reader.read().then((result) => log.push(`second read ${result.done ? "done" : "chunk"}`));
  await afterJobs();
  return log;
}

/** Resolves once the streams have started and nothing is left to do. */
const settled = afterJobs;

/** A source with chunks queued whose next pull errors, piped into a sink that takes one chunk at a time. */
async function pullErrorsWhileQueued(): Promise<string[]> {
  const log: string[] = [];
  const written: string[] = [];
  let pulls = 0;
  const source = new ReadableStream<string>(
    {
      start(controller) {
        controller.enqueue("a");
        controller.enqueue("b");
      },
      pull(controller) {
        pulls += 1;
        controller.error("E");
      },
    },
    { highWaterMark: 2 },
  );
  const sink = new WritableStream<string>(
    {
      write(chunk) {
        written.push(chunk);
      },
      abort(reason) {
        log.push(`abort ${String(reason)}`);
      },
    },
    { highWaterMark: 1 },
  );
  await settled();
  source.pipeTo(sink).catch((error: unknown) => log.push(`pipe rejected ${String(error)}`));
  await afterJobs();
  log.push(`written: ${written.join(" ")}`, `pulls: ${pulls}`);
  return log;
}

/** Counts the pulls of a source that enqueues on its first pull only, piped after it has filled its queue. */
async function pullsOfAPipe(highWaterMark: number, enqueueAtStart: boolean): Promise<string[]> {
  const log: string[] = [];
  let pulls = 0;
  const source = new ReadableStream<string>(
    {
      start(controller) {
        if (enqueueAtStart) controller.enqueue("s");
      },
      pull(controller) {
        pulls += 1;
        if (pulls === 1 && !enqueueAtStart) controller.enqueue("p");
      },
    },
    { highWaterMark },
  );
  const sink = new WritableStream<string>(
    {
      write(chunk) {
        log.push(`write ${chunk}`);
      },
    },
    { highWaterMark: 1 },
  );
  await settled();
  log.push(`pulls before the pipe: ${pulls}`);
  void source.pipeTo(sink);
  await afterJobs();
  log.push(`pulls: ${pulls}`);
  return log;
}

/** When an async iterator's `next()` for a queued chunk settles, counted in promise jobs. */
async function iteratorNextJobs(): Promise<string[]> {
  const log: string[] = [];
  const source = new ReadableStream<string>({
    start(controller) {
      controller.enqueue("a");
    },
  });
  const iterator = source.values();
  let job = 0;
  const count = (): void => {
    job += 1;
    if (job < 5) void Promise.resolve().then(count);
  };
  void Promise.resolve().then(count);
  void iterator.next().then((result) => log.push(`next ${String(result.value)} after job ${job}`));
  await afterJobs();
  return log;
}

/** The cases, in the issue's order. */
export const issue21Cases: RegressionCase[] = [
  ...[0, 1, 2].map((highWaterMark) => ({
    name: `1: pipeTo writes the chunk a pull enqueued before erroring (highWaterMark ${highWaterMark})`,
    run: () => enqueueThenError(highWaterMark),
    expected: ["pull", "write a", "abort E", "pipe rejected E"],
  })),
  {
    // The second pipe reads "a" from a source that is already errored: shutting down, it writes the chunk it
    // has read, then aborts the sink (already errored by W, so the abort does nothing) and rejects with the
    // source's error, as the standard's "shutdown with an action" does (the reference implementation agrees;
    // Node rejects with W). The first pipe sees its destination errored and cancels the source (when, relative
    // to the second pipe, the standard leaves open).
    name: "2: a pipe through a transform that enqueues then errors, into a throwing sink, settles and unlocks",
    run: transformErrorsIntoThrowingSink,
    expected: [
      "pull",
      "transform a",
      "write a",
      "pipe rejected E",
      "source cancelled: E",
      "locked: false false false false",
    ],
  },
  {
    name: "3: cancelling a terminated transform stream's readable side resolves without calling the transformer",
    run: cancelAfterTerminate,
    expected: ["readable locked: false", "writer closed rejected TypeError", "cancel fulfilled"],
  },
  {
    // WebIDL converts the promise `pull` returns into a new promise, which adopts it two jobs later: branch B's
    // second read reaches the source while the second pull is already over, and the source enqueues nothing more.
    name: "4: a teed byte stream pulls as the standard's promise jobs say (no third pull)",
    run: byteTeePulls,
    expected: ["pull 1", "read 1", "pull 2"],
  },
  // Found by the differential fuzzer (test/streams/fuzz).
  {
    // Reading "a" empties the queue below the high-water mark, so the standard pulls right there; that pull
    // errors the stream, which discards "b".
    name: "5: a pipe does not read past a dequeue whose pull errors the stream",
    run: pullErrorsWhileQueued,
    expected: ["abort E", "pipe rejected E", "written: a", "pulls: 1"],
  },
  {
    // The pipe reads "s"; its next read finds the queue empty and pulls once; the pull adds nothing, so the
    // read waits.
    name: "6: a pipe's read of an empty queue pulls once",
    run: () => pullsOfAPipe(0, true),
    expected: ["pulls before the pipe: 0", "write s", "pulls: 1"],
  },
  {
    // The queue holds "p" (the first pull's); reading it leaves the queue below the high-water mark, so it pulls;
    // the pipe's next read pulls again.
    name: "7: a dequeue's pull and the next read's pull are two pulls",
    run: () => pullsOfAPipe(2, false),
    expected: ["pulls before the pipe: 2", "write p", "pulls: 4"],
  },
  {
    // The iterator's result is made in a reaction to the read's promise, one job after the read.
    name: "8: an async iterator's next() for a queued chunk settles when the standard's promise jobs say",
    run: iteratorNextJobs,
    expected: ["next a after job 2"],
  },
];
