/**
 * Checks of drainpipe's iterable-streams bridges against Node 26's own implementation of the API
 * (`node:stream/iter`), run by `node26.test.ts` as `node --experimental-stream-iter test/streams/iterable/
 * stream-iter-checks.ts` on the project's Node 26. Prints `ok <check>` or `not ok <check>: <error>` per check, then
 * `stream-iter: <passed>/<total> passed`, and exits non-zero when any check fails.
 * @module
 */

import fc from "fast-check";
import { ReadableStream, TransformStream, WritableStream } from "../../../src/streams/index.ts";
import { fromStreamable, toWriter, type Writer } from "../../../src/streams/iterable/index.ts";
import { batchesArb, joined, recordingWritable } from "./bridge-pipelines.ts";

/** The parts of `node:stream/iter` these checks use. */
interface StreamIter {
  from(input: unknown): AsyncIterable<Uint8Array[]>;
  pull(input: unknown, ...transforms: unknown[]): AsyncIterable<Uint8Array[]>;
  bytes(input: unknown): Promise<Uint8Array>;
  pipeTo(input: unknown, writer: unknown, options?: object): Promise<number>;
  ondrain(writer: unknown): Promise<boolean> | null;
}

const iter = (await import("node:stream/iter" as string)) as StreamIter;

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`Check failed: ${message}`);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}: expected ${e}, got ${a}`);
}

/** A drainpipe stream with `count` chunks of `size` bytes queued at start, recording cancel reasons. */
function queued(count: number, size: number) {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        for (let i = 0; i < count; i++) controller.enqueue(new Uint8Array(size).fill(i % 256));
        controller.close();
      },
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: Number.POSITIVE_INFINITY },
  );
  return { stream, cancelled };
}

/** An endless drainpipe stream of one-byte chunks (a synchronous pull), recording cancel reasons. */
function endless() {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new Uint8Array(1)),
    cancel: (reason) => void cancelled.push(reason),
  });
  return { stream, cancelled };
}

/** A sync generator of `count` chunks of `size` bytes: `from()` groups it in batches of 128. */
function* generated(count: number, size: number): Generator<Uint8Array> {
  for (let i = 0; i < count; i++) yield new Uint8Array(size).fill(i % 256);
}

const checks: { name: string; run(): Promise<void> }[] = [
  {
    name: "from(drainpipe stream) takes its queued chunks as one whole batch",
    async run() {
      const { stream } = queued(1000, 10);
      const sizes: number[] = [];
      for await (const batch of iter.from(stream)) sizes.push(batch.length);
      same(sizes, [1000], "batch sizes");
    },
  },
  {
    name: "bytes(), pull() and pipeTo() of the API read a drainpipe stream by batches",
    async run() {
      same((await iter.bytes(queued(300, 3).stream)).byteLength, 900, "bytes()");
      const sizes: number[] = [];
      for await (const batch of iter.pull(queued(300, 3).stream)) sizes.push(batch.length);
      same(sizes, [300], "pull() batch sizes");
      const sink = recordingWritable(1000, false);
      same(await iter.pipeTo(queued(300, 3).stream, toWriter(sink.stream)), 900, "pipeTo() bytes");
    },
  },
  {
    name: "strings are UTF-8 encoded; another chunk fails from() with a TypeError and cancels the stream",
    async run() {
      const text = new ReadableStream<string>({
        start(controller) {
          controller.enqueue("hé");
          controller.close();
        },
      });
      same([...(await iter.bytes(text))], [0x68, 0xc3, 0xa9], "encoded bytes");
      const cancelled: unknown[] = [];
      const numbers = new ReadableStream<unknown>({
        start: (controller) => controller.enqueue(7),
        cancel: (reason) => void cancelled.push(reason),
      });
      const error = await iter.bytes(numbers).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      check(error instanceof TypeError, "bytes() rejects with a TypeError");
      check(cancelled[0] === error, "the stream is cancelled with that TypeError");
    },
  },
  {
    name: "pipeTo(from(generator), toWriter(drainpipe writable)) hands whole 128-chunk batches to writev",
    async run() {
      const calls: number[] = [];
      const writable = new WritableStream<Uint8Array>(
        {
          writev(chunks) {
            calls.push(chunks.length);
          },
        },
        { highWaterMark: 1024 },
      );
      same(await iter.pipeTo(iter.from(generated(1000, 10)), toWriter(writable)), 10_000, "bytes written");
      same(
        calls.reduce((sum, size) => sum + size, 0),
        1000,
        "chunks written",
      );
      check(calls.length <= 8, `1000 chunks reached the sink in ${calls.length} writev calls`);
    },
  },
  {
    name: "fromStreamable(from(generator)) enqueues each whole batch as one chunk of its bytes",
    async run() {
      const reader = fromStreamable(iter.from(generated(1000, 10))).getReader();
      const sizes: number[] = [];
      for (;;) {
        const { chunks, done } = await reader.readMany();
        for (const chunk of chunks) sizes.push(chunk.byteLength);
        if (done) break;
      }
      same(sizes, [1280, 1280, 1280, 1280, 1280, 1280, 1280, 1040], "chunk sizes (128-chunk batches of 10 bytes)");
    },
  },
  {
    name: "early exit cancels the source: breaking out of from(), and fromStreamable's cancel",
    async run() {
      const source = endless();
      for await (const batch of iter.from(source.stream)) {
        check(batch.length > 0, "a batch");
        break;
      }
      same(source.cancelled.length, 1, "drainpipe source cancelled");
      check(!source.stream.locked, "drainpipe source released");
      let returned = false;
      async function* forever() {
        try {
          for (;;) yield [new Uint8Array(1)];
        } finally {
          returned = true;
        }
      }
      const reader = fromStreamable(iter.from(forever())).getReader();
      await reader.read();
      await reader.cancel("enough");
      check(returned, "the API's iterator was ended by fromStreamable's cancel");
    },
  },
  {
    name: "errors cross both ways with their cause",
    async run() {
      const sourceError = new RangeError("drainpipe source broke");
      const aborted: unknown[] = [];
      const failing = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(sourceError) });
      const writable = new WritableStream<Uint8Array>({ abort: (reason) => void aborted.push(reason) });
      const piped = await iter.pipeTo(failing, toWriter(writable)).then(
        () => undefined,
        (error: unknown) => error,
      );
      check(piped === sourceError, "pipeTo rejects with the drainpipe source's error");
      check(aborted[0] === sourceError, "the writer's stream is aborted with it (fail)");

      const sinkError = new RangeError("drainpipe sink broke");
      const source = endless();
      const broken = new WritableStream<Uint8Array>({
        write() {
          throw sinkError;
        },
      });
      const rejected = await iter.pipeTo(source.stream, toWriter(broken)).then(
        () => undefined,
        (error: unknown) => error,
      );
      check(rejected === sinkError, "pipeTo rejects with the drainpipe sink's error");
      same(source.cancelled.length, 1, "the drainpipe source is cancelled");

      const iterError = new RangeError("API source broke");
      async function* throwing() {
        yield [new Uint8Array(1)];
        throw iterError;
      }
      const reader = fromStreamable(iter.from(throwing())).getReader();
      await reader.read();
      const read = await reader.read().then(
        () => undefined,
        (error: unknown) => error,
      );
      check(read === iterError, "fromStreamable errors with the API source's error");
    },
  },
  {
    name: "backpressure holds: a slow drainpipe sink never has more than its high-water mark queued",
    async run() {
      const highWaterMark = 16;
      let queuedMost = 0;
      let writer: Writer | undefined;
      // Each sink call sees the queue as the writer left it: the chunks accepted while the last call ran.
      const slowly = async (): Promise<void> => {
        queuedMost = Math.max(queuedMost, highWaterMark - (writer?.desiredSize ?? highWaterMark));
        await new Promise((resolve) => setTimeout(resolve, 0));
      };
      const writable = new WritableStream<Uint8Array>({ writev: slowly, write: slowly }, { highWaterMark });
      writer = toWriter(writable);
      same(await iter.pipeTo(iter.from(generated(2000, 1)), writer), 2000, "bytes written");
      check(queuedMost > 1 && queuedMost <= highWaterMark, `at most ${highWaterMark} queued, saw ${queuedMost}`);
      check(iter.ondrain(writer) === null, "ondrain() of an ended writer answers null");
    },
  },
  {
    name: "property: random chunk sequences through from(), the three bridges and the API's pipeTo, byte for byte",
    async run() {
      await fc.assert(
        fc.asyncProperty(
          batchesArb,
          fc.record({
            viaDrainpipe: fc.boolean(),
            viaFromStreamable: fc.boolean(),
            hwm: fc.integer({ min: 1, max: 64 }),
          }),
          async (batches, choice) => {
            let source: unknown = iter.from(batches.map((batch) => batch.map((chunk) => chunk.slice())));
            if (choice.viaFromStreamable) source = fromStreamable(source as AsyncIterable<Uint8Array[]>);
            if (choice.viaDrainpipe) {
              const stream = source instanceof ReadableStream ? source : fromStreamable(source as never);
              source = stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>());
            }
            const sink = recordingWritable(choice.hwm, true);
            const written = await iter.pipeTo(source, toWriter(sink.stream));
            same(sink.bytes, joined(batches), "bytes out");
            same(written, sink.bytes.length, "pipeTo's byte count");
          },
        ),
        { numRuns: 150 },
      );
    },
  },
];

let passed = 0;
for (const { name, run } of checks) {
  try {
    await run();
    passed += 1;
    console.log(`ok ${name}`);
  } catch (error) {
    console.log(`not ok ${name}: ${error instanceof Error ? error.stack : String(error)}`);
  }
}
console.log(`stream-iter: ${passed}/${checks.length} passed`);
if (passed !== checks.length) process.exitCode = 1;
