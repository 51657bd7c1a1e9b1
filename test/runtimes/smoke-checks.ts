/**
 * Smoke checks of drainpipe's streams that run unchanged on Node, workerd, Deno and Bun: no test framework,
 * no runtime-specific API, only the standard globals every one of them has.
 * @module
 */

import { collectBytes } from "../../src/streams/adapters/collect-bytes.ts";
import { fromNativeStream } from "../../src/streams/adapters/from-native.ts";
import { sizedByteStream } from "../../src/streams/adapters/sized-byte-stream.ts";
import { toNativeStream } from "../../src/streams/adapters/to-native.ts";
import {
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  ReadableByteStreamController,
  ReadableStream,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableStreamDefaultController,
  ReadableStreamDefaultReader,
  TransformStream,
  TransformStreamDefaultController,
  WritableStream,
  WritableStreamDefaultController,
  WritableStreamDefaultWriter,
} from "../../src/streams/index.ts";
import { hostCrossingChecks } from "./host-crossing-checks.ts";

/** One named check; `run` rejects when the check fails. */
export interface SmokeCheck {
  name: string;
  run(): Promise<void>;
}

/** The outcome of one check. */
export interface SmokeResult {
  name: string;
  error: unknown;
}

class SmokeFailure extends Error {
  override name = "SmokeFailure";
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new SmokeFailure(message);
}

function checkEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}: expected ${e}, got ${a}`);
}

function checkThrows(run: () => unknown, what: string): void {
  let threw = false;
  try {
    run();
  } catch {
    threw = true;
  }
  check(threw, `${what} did not throw`);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function pattern(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7) % 256;
  return bytes;
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of stream) values.push(value);
  return values;
}

const CHUNKS = 3000;

/** Every smoke check, in the order they run. */
export const smokeChecks: readonly SmokeCheck[] = [
  {
    name: "constructs every class",
    async run() {
      let defaultController: unknown;
      let byteController: unknown;
      let byobRequest: unknown;
      let writableController: unknown;
      let transformController: unknown;
      const readable = new ReadableStream({
        start: (c) => {
          defaultController = c;
        },
      });
      const bytes = new ReadableStream({
        type: "bytes",
        start: (c) => {
          byteController = c;
        },
        pull: (c) => {
          byobRequest = c.byobRequest;
          c.byobRequest!.respond(1);
        },
      });
      const writable = new WritableStream({
        start: (c) => {
          writableController = c;
        },
      });
      new TransformStream({
        start: (c) => {
          transformController = c;
        },
      });
      check(readable.getReader() instanceof ReadableStreamDefaultReader, "getReader() gives a default reader");
      const byobReader = bytes.getReader({ mode: "byob" });
      check(byobReader instanceof ReadableStreamBYOBReader, "getReader({ mode: 'byob' }) gives a BYOB reader");
      await byobReader.read(new Uint8Array(4));
      check(writable.getWriter() instanceof WritableStreamDefaultWriter, "getWriter() gives a writer");
      check(defaultController instanceof ReadableStreamDefaultController, "default controller");
      check(byteController instanceof ReadableByteStreamController, "byte controller");
      check(byobRequest instanceof ReadableStreamBYOBRequest, "BYOB request");
      check(writableController instanceof WritableStreamDefaultController, "writable controller");
      check(transformController instanceof TransformStreamDefaultController, "transform controller");
      checkEqual(new CountQueuingStrategy({ highWaterMark: 3 }).size(), 1, "CountQueuingStrategy size");
      checkEqual(new ByteLengthQueuingStrategy({ highWaterMark: 3 }).size(new Uint8Array(5)), 5, "ByteLength size");
      checkThrows(
        () => Reflect.construct(ReadableStreamDefaultController, []),
        "new ReadableStreamDefaultController()",
      );
    },
  },
  {
    name: `pipes ${CHUNKS} chunks through a TransformStream into a WritableStream`,
    async run() {
      let next = 0;
      const source = new ReadableStream<number>({
        pull(controller) {
          if (next === CHUNKS) controller.close();
          else controller.enqueue(next++);
        },
      });
      const doubled = new TransformStream<number, number>({ transform: (n, controller) => controller.enqueue(n * 2) });
      const seen: number[] = [];
      let closed = false;
      const sink = new WritableStream<number>(
        {
          write: (n) => void seen.push(n),
          close: () => {
            closed = true;
          },
        },
        new CountQueuingStrategy({ highWaterMark: 16 }),
      );
      await source.pipeThrough(doubled).pipeTo(sink);
      check(closed, "sink closed");
      checkEqual(seen.length, CHUNKS, "chunks written");
      check(
        seen.every((n, i) => n === i * 2),
        "chunks arrive transformed and in order",
      );
    },
  },
  {
    name: "reads a byte stream with BYOB read(view, { min })",
    async run() {
      const bytes = pattern(10_000);
      let offset = 0;
      const stream = new ReadableStream({
        type: "bytes",
        pull(controller) {
          const request = controller.byobRequest!;
          const view = request.view!;
          const count = Math.min(100, view.byteLength, bytes.byteLength - offset);
          if (count === 0) {
            controller.close();
            request.respond(0);
            return;
          }
          view.set(bytes.subarray(offset, offset + count));
          offset += count;
          request.respond(count);
        },
      });
      const reader = stream.getReader({ mode: "byob" });
      const first = await reader.read(new Uint8Array(4096), { min: 1000 });
      check(!first.done && first.value!.byteLength >= 1000, "first read holds at least min bytes");
      check(bytesEqual(first.value!, bytes.subarray(0, first.value!.byteLength)), "first read's bytes");
      let total = first.value!.byteLength;
      for (;;) {
        const { done, value } = await reader.read(new Uint8Array(4096), { min: 4096 });
        check(bytesEqual(value!, bytes.subarray(total, total + value!.byteLength)), "later read's bytes");
        total += value!.byteLength;
        if (done) break;
      }
      checkEqual(total, bytes.byteLength, "bytes read");
    },
  },
  {
    name: "tees a stream into two equal branches",
    async run() {
      const [left, right] = ReadableStream.from(["a", "b", "c"]).tee();
      const [l, r] = await Promise.all([readAll(left), readAll(right)]);
      checkEqual(l, ["a", "b", "c"], "left branch");
      checkEqual(r, ["a", "b", "c"], "right branch");
    },
  },
  {
    name: "builds streams with ReadableStream.from",
    async run() {
      async function* generate(): AsyncGenerator<number> {
        for (let i = 0; i < 5; i++) yield i;
      }
      checkEqual(await readAll(ReadableStream.from(generate())), [0, 1, 2, 3, 4], "from an async generator");
      checkEqual(await readAll(ReadableStream.from([1, Promise.resolve(2)])), [1, 2], "from an array");
    },
  },
  {
    name: "iterates asynchronously, and breaking out cancels the stream",
    async run() {
      let cancelled = false;
      let next = 0;
      const stream = new ReadableStream<number>({
        pull: (controller) => controller.enqueue(next++),
        cancel: () => {
          cancelled = true;
        },
      });
      const seen: number[] = [];
      for await (const n of stream) {
        seen.push(n);
        if (n === 9) break;
      }
      checkEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "values seen");
      check(cancelled, "stream cancelled by break");
      check(!stream.locked, "stream unlocked after break");
    },
  },
  {
    name: "aborts a pipe through its signal",
    async run() {
      let cancelReason: unknown;
      let abortReason: unknown;
      let written = 0;
      const source = new ReadableStream<number>({
        pull: (controller) => controller.enqueue(written),
        cancel: (reason) => {
          cancelReason = reason;
        },
      });
      const controller = new AbortController();
      const sink = new WritableStream<number>({
        write() {
          if (++written === 100) controller.abort(new Error("stop here"));
        },
        abort: (reason) => {
          abortReason = reason;
        },
      });
      let pipeError: unknown;
      await source.pipeTo(sink, { signal: controller.signal }).catch((error: unknown) => {
        pipeError = error;
      });
      check(pipeError === controller.signal.reason, "pipeTo rejects with the signal's reason");
      check(cancelReason === controller.signal.reason, "source cancelled with the reason");
      check(abortReason === controller.signal.reason, "sink aborted with the reason");
      checkEqual(written, 100, "chunks written before the abort");
    },
  },
  {
    name: "adapts native streams both ways (fromNativeStream, sizedByteStream, toNativeStream)",
    async run() {
      const bytes = pattern(300_000);
      const adapted = fromNativeStream(new Response(bytes).body!, { readSize: 64 * 1024 });
      const sizes: number[] = [];
      const passed = adapted.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            sizes.push(chunk.byteLength);
            controller.enqueue(chunk);
          },
        }),
      );
      const roundTrip = new Uint8Array(await new Response(toNativeStream(passed)).arrayBuffer());
      check(bytesEqual(roundTrip, bytes), "bytes survive native → drainpipe → native");
      checkEqual(sizes.slice(0, 4), [65_536, 65_536, 65_536, 65_536], "read sizes from the native body");
      let offset = 0;
      const sized = sizedByteStream(
        {
          fill(view) {
            const count = Math.min(view.byteLength, bytes.byteLength - offset);
            view.set(bytes.subarray(offset, offset + count));
            offset += count;
            return count;
          },
        },
        { chunkSize: 100_000 },
      );
      check(bytesEqual(await collectBytes(sized, bytes.byteLength), bytes), "sized byte stream collected");
    },
  },
  ...hostCrossingChecks,
];

/** Runs every check in order; never rejects. */
export async function runSmokeChecks(): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  for (const { name, run } of smokeChecks) {
    try {
      await run();
      results.push({ name, error: undefined });
    } catch (error) {
      results.push({ name, error: error ?? new Error("rejected without a reason") });
    }
  }
  return results;
}
