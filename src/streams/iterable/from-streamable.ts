/**
 * {@link fromStreamable}: a drainpipe byte stream over a source of the iterable-streams API.
 * @module
 */

import { batchBytes } from "../engine/chunk-bytes.ts";
import { toAsyncStreamable } from "../engine/iterable-protocols.ts";
import type { ReadableByteStreamController } from "../engine/readable-byte-stream-controller.ts";
import { ReadableStream } from "../engine/readable-stream.ts";

/** A source of the iterable-streams API: a sync or async iterable of batches (`Uint8Array[]`) or of chunks. */
export type Streamable =
  | AsyncIterable<unknown>
  | Iterable<unknown>
  | { [toAsyncStreamable](): AsyncIterable<unknown> | Iterable<unknown> | PromiseLike<AsyncIterable<unknown>> };

/** An iterator of either kind: `next()` answers a result or a promise of one. */
interface StepIterator {
  next(): IteratorResult<unknown> | PromiseLike<IteratorResult<unknown>>;
  return?(value?: unknown): unknown;
}

/** The iterator of `source`, after the conversion protocol if it has it; `undefined` when it is no streamable. */
function iteratorOf(source: unknown): StepIterator | Promise<StepIterator> | undefined {
  if (source === null || (typeof source !== "object" && typeof source !== "function")) return undefined;
  const convert = (source as { [toAsyncStreamable]?: unknown })[toAsyncStreamable];
  if (typeof convert === "function") {
    const converted: unknown = convert.call(source);
    return Promise.resolve(converted).then((iterable) => {
      const iterator = iteratorOf(iterable);
      if (iterator === undefined) throw notStreamable('its [Symbol.for("Stream.toAsyncStreamable")]() result');
      return iterator;
    });
  }
  const asyncIterator = (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator];
  if (typeof asyncIterator === "function") return asyncIterator.call(source) as StepIterator;
  const iterator = (source as Partial<Iterable<unknown>>)[Symbol.iterator];
  if (typeof iterator === "function") return iterator.call(source) as StepIterator;
  return undefined;
}

function notStreamable(what: string): TypeError {
  return new TypeError(`Cannot read a streamable: ${what} is neither iterable nor async iterable`);
}

/**
 * Enqueues the bytes of one step's value (a batch or a single chunk; every chunk converted before any byte is
 * enqueued) as one chunk: a byte stream's `enqueue` takes over (detaches) the buffer it is given, so the bytes are
 * copied into a buffer of their own, and one copy per batch costs one allocation where a copy per chunk costs as
 * many allocations and transfers as chunks. Returns whether it enqueued anything (a byte stream holds no empty
 * chunk).
 */
function enqueueStep(controller: ReadableByteStreamController, value: unknown): boolean {
  const batch = batchBytes(Array.isArray(value) ? value : [value]);
  let total = 0;
  for (let i = 0; i < batch.length; i++) total += (batch[i] as Uint8Array).byteLength;
  if (total === 0) return false;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (let i = 0; i < batch.length; i++) {
    const bytes = batch[i] as Uint8Array;
    joined.set(bytes, offset);
    offset += bytes.byteLength;
  }
  controller.enqueue(joined);
  return true;
}

/** Ends `iterator` after a failure of its own, ignoring whatever its `return()` says. */
async function closeQuietly(iterator: StepIterator): Promise<void> {
  try {
    await iterator.return?.();
  } catch {
    // The failure that ends the stream is the one reported.
  }
}

/**
 * A drainpipe byte stream (so BYOB readers work) over `source`: a sync or async iterable whose steps are batches
 * (`Uint8Array[]`) or single chunks (bytes or strings, strings UTF-8 encoded), or an object with the
 * `Symbol.for("Stream.toAsyncStreamable")` method (such as any stream of the iterable-streams API). Each pull takes
 * one step of the source and enqueues its whole batch as one chunk (its bytes copied once into a buffer of the
 * stream's own, so the source keeps its buffers; a byte stream carries bytes, not chunk boundaries); the source is
 * stepped only when a read waits (backpressure). Cancelling the stream calls the iterator's `return(reason)`; an
 * error of the source, or a chunk that is neither bytes nor a string (`TypeError`), errors the stream.
 *
 * @throws {TypeError} "Cannot read a streamable: …" when `source` is neither iterable nor async iterable.
 * @example
 * ```ts
 * async function* batches() {
 *   yield [new Uint8Array([1, 2]), new Uint8Array([3])];
 *   yield "four";
 * }
 * const reader = fromStreamable(batches()).getReader();
 * (await reader.read()).value; // new Uint8Array([1, 2, 3])
 * (await reader.read()).value; // new TextEncoder().encode("four")
 * (await reader.readMany()).done; // true
 * ```
 */
export function fromStreamable(source: Streamable): ReadableStream<Uint8Array> {
  const found = iteratorOf(source);
  if (found === undefined) throw notStreamable("the source");
  let iterator: StepIterator | Promise<StepIterator> = found;
  return new ReadableStream({
    type: "bytes",
    async pull(controller) {
      const steps = await iterator;
      iterator = steps;
      try {
        for (;;) {
          const step = await steps.next();
          if (step.done) {
            controller.close();
            controller.byobRequest?.respond(0);
            return;
          }
          if (enqueueStep(controller, step.value)) return;
        }
      } catch (error) {
        await closeQuietly(steps);
        throw error;
      }
    },
    async cancel(reason) {
      const steps = await iterator;
      await steps.return?.(reason);
    },
  });
}
