/**
 * drainpipe's synchronous drain (non-standard, internal): hands a reader's caller every chunk a stream can give
 * without waiting, the chunks already queued plus whatever a `pull` that completes synchronously adds, as the
 * standard's reads would one at a time. Used by `readMany` (`fast-paths/read-many.ts`) and by `pipeTo`.
 *
 * Chunks queued in a default controller are moved in ranges where that is equivalent to reading them one at a
 * time (see `bulkDequeueCount`): one copy out of the queue and one after-dequeue step per range.
 * @module
 */

import { debugAssert } from "../../base/assert.ts";
import { callForCompletion, reactTo } from "../../base/completion.ts";
import type { QueueWithSizes } from "../../standard/queue-with-sizes.ts";
import { ReadableByteStreamController } from "../readable-byte-stream-controller.ts";
import {
  type ReadableStream,
  ReadableStreamAddReadRequest,
  ReadableStreamGetNumReadRequests,
} from "../readable-stream.ts";
import {
  ReadableStreamDefaultController,
  ReadableStreamDefaultControllerCallPullIfNeeded,
  ReadableStreamDefaultControllerCanCloseOrEnqueue,
  ReadableStreamDefaultControllerShouldCallPull,
} from "../readable-stream-default-controller.ts";
import {
  type ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderRead,
  type ReadRequest,
} from "../readable-stream-default-reader.ts";
import { dequeueMany, NO_CHUNK, tryDequeue } from "./dequeue.ts";

/** Size of a chunk for the `maxBytes` cap: `byteLength` of buffers and views, `length` of strings, else 0. */
export function chunkByteSize(chunk: unknown): number {
  if (typeof chunk === "string") return chunk.length;
  if (typeof chunk === "object" && chunk !== null) {
    const byteLength = (chunk as { byteLength?: unknown }).byteLength;
    if (typeof byteLength === "number") return byteLength;
  }
  return 0;
}

/** Receives the chunks of a synchronous drain, and says when it has had enough. */
export interface ChunkSink<R> extends ReadRequest<R> {
  /** Set when the drain found the stream closed. */
  closed: boolean;
  /** Set when the drain found the stream errored. */
  errored: boolean;
  /** The stream's error, when `errored`. */
  error: unknown;
  /** Whether the drain should hand over another chunk. */
  wantsMore(): boolean;
  /**
   * Optional bulk form, for sinks whose `chunkSteps` has no side effects: how many of the chunks in `queue`,
   * oldest first, the sink would take one by one before `wantsMore()` turned false (at least 1 when it wants
   * more). The drain may then hand them over in one {@link ChunkSink.chunksSteps} call.
   */
  acceptCount?(queue: QueueWithSizes<R>): number;
  /** Receives several chunks at once, in order (with `acceptCount`); the sink may keep the array. */
  chunksSteps?(chunks: R[]): void;
}

/** Collects chunks from one reader, up to soft caps: the read request used while draining and while waiting. */
export class ChunkCollector<R> implements ChunkSink<R> {
  chunks: R[] = [];
  private bytes = 0;
  closed = false;
  errored = false;
  error: unknown = undefined;
  /** Soft cap on collected chunks. */
  maxChunks: number;
  /** Soft cap on collected bytes (see {@link chunkByteSize}); `Infinity` for none (bytes are then not counted). */
  readonly maxBytes: number;

  constructor(maxChunks: number, maxBytes: number) {
    this.maxChunks = maxChunks;
    this.maxBytes = maxBytes;
  }

  wantsMore(): boolean {
    return this.chunks.length < this.maxChunks && (this.maxBytes === Infinity || this.bytes < this.maxBytes);
  }

  /** Hands over the collected chunks and starts an empty collection. */
  take(): R[] {
    const chunks = this.chunks;
    this.chunks = [];
    this.bytes = 0;
    return chunks;
  }

  chunkSteps(chunk: R): void {
    this.chunks.push(chunk);
    if (this.maxBytes !== Infinity) this.bytes += chunkByteSize(chunk);
  }

  acceptCount(queue: QueueWithSizes<R>): number {
    const room = Math.min(queue.length, this.maxChunks - this.chunks.length);
    if (this.maxBytes === Infinity) return Math.max(room, 0);
    let bytes = this.bytes;
    let count = 0;
    while (count < room && bytes < this.maxBytes) {
      bytes += chunkByteSize(queue.at(count));
      count += 1;
    }
    return count;
  }

  chunksSteps(chunks: R[]): void {
    if (this.maxBytes !== Infinity) {
      let bytes = this.bytes;
      for (let i = 0; i < chunks.length; i++) bytes += chunkByteSize(chunks[i]);
      this.bytes = bytes;
    }
    if (this.chunks.length === 0) {
      this.chunks = chunks;
    } else {
      for (let i = 0; i < chunks.length; i++) this.chunks.push(chunks[i]!);
    }
  }

  closeSteps(): void {
    this.closed = true;
  }

  errorSteps(error: unknown): void {
    this.errored = true;
    this.error = error;
  }
}

/** Whether `stream`'s controller has chunks (or bytes) queued. */
export function hasQueuedData<R>(stream: ReadableStream<R>): boolean {
  const controller = stream._readableStreamController;
  if (controller instanceof ReadableByteStreamController) return controller._queueTotalSize > 0;
  return (controller as ReadableStreamDefaultController<R>)._queue.length > 0;
}

/**
 * Hands `sink` every chunk `reader`'s stream can give synchronously, calling a synchronous underlying `pull`
 * again while it adds data, as long as `sink.wantsMore()`. Never leaves a read request registered. Returns when
 * nothing more is available without waiting, or the sink has had enough: `true` when the drain ended on a pull
 * that completed synchronously and added nothing. That pull answered the read the caller is making; a read
 * request it registers next should then wait for data without pulling again (see
 * `ReadableStreamAddReadRequest`), as the standard's single read would.
 */
export function drainSynchronously<R>(reader: ReadableStreamDefaultReader<R>, sink: ChunkSink<R>): boolean {
  const stream = reader._ownerReadableStream as ReadableStream<R>;
  const controller = stream._readableStreamController;
  if (controller instanceof ReadableStreamDefaultController) {
    return drainDefaultController(stream, reader, controller, sink);
  }
  while (sink.wantsMore() && !sink.closed && !sink.errored) {
    if (stream._state === "readable" && !hasQueuedData(stream)) return false;
    ReadableStreamDefaultReaderRead(reader, sink);
  }
  return false;
}

/**
 * The read request a drain registers while it calls `pull` on an empty queue, as the standard's read does before
 * pulling: the first chunk that pull enqueues is then read, not queued, so an error the pull raises right after
 * does not discard it. The drain hands the chunk to its sink once `pull` has returned.
 */
class HeldRead<R> implements ReadRequest<R> {
  hasChunk = false;
  chunk: R | undefined = undefined;

  chunkSteps(chunk: R): void {
    this.hasChunk = true;
    this.chunk = chunk;
  }

  /** The drain sees the stream closed when it next checks its state. */
  closeSteps(): void {}

  /** The drain sees the stream errored when it next checks its state. */
  errorSteps(): void {}
}

function drainDefaultController<R>(
  stream: ReadableStream<R>,
  reader: ReadableStreamDefaultReader<R>,
  controller: ReadableStreamDefaultController<R>,
  collector: ChunkSink<R>,
): boolean {
  DEBUG: debugAssert(
    !controller._pullSettled || controller._pulling,
    "_pullSettled is set while no pull is in progress",
  );
  const canPullSynchronously =
    controller._underlyingPull !== undefined &&
    controller._started &&
    (!controller._pulling || controller._pullSettled);
  if (canPullSynchronously) {
    if (controller._pulling) {
      controller._staleReactions += 1;
      controller._pullSettled = false;
    }
    controller._pulling = true;
    controller._pullAgain = false;
  }
  let pullCompletion: ReturnType<typeof callForCompletion> | null = null;
  let pulledNothing = false;
  let held: HeldRead<R> | undefined;
  for (;;) {
    while (collector.wantsMore()) {
      const state = stream._state;
      if (state === "closed") {
        collector.closed = true;
        break;
      }
      if (state === "errored") {
        collector.errored = true;
        collector.error = stream._storedError;
        break;
      }
      stream._disturbed = true;
      const count =
        collector.acceptCount === undefined
          ? 1
          : bulkDequeueCount(stream, controller, collector.acceptCount(controller._queue), canPullSynchronously);
      if (count > 1) {
        const chunks = controller[dequeueMany](count);
        (collector.chunksSteps as (chunks: R[]) => void)(chunks);
      } else {
        const chunk = controller[tryDequeue]();
        if (chunk === NO_CHUNK) break;
        collector.chunkSteps(chunk);
      }
      // The dequeue asked for a pull (the drain holds [[pulling]], so it only set [[pullAgain]]): the standard
      // pulls right there, before the next chunk is read; what that pull does (error the stream, say) decides
      // what the next read gets.
      if (canPullSynchronously && controller._pullAgain) break;
    }
    if (!canPullSynchronously) return false;
    if (collector.closed || collector.errored || !collector.wantsMore()) break;
    if (stream._state !== "readable" || controller._closeRequested) break;
    const underlyingPull = controller._underlyingPull;
    if (underlyingPull === undefined) break;
    const before = controller._queue.length;
    // A dequeue above left a pull due ([[pullAgain]]): this pull is that one, made before the read reaches the
    // source, so no read request waits during it, and the read still makes its own pull afterwards.
    const dueToDequeue = controller._pullAgain;
    controller._pullAgain = false;
    if (!dueToDequeue) {
      held ??= new HeldRead<R>();
      ReadableStreamAddReadRequest(stream, held);
    }
    pullCompletion = callForCompletion(underlyingPull.fn, underlyingPull.source, controller);
    const read = held?.hasChunk === true;
    if (read) {
      const chunk = (held as HeldRead<R>).chunk as R;
      (held as HeldRead<R>).hasChunk = false;
      (held as HeldRead<R>).chunk = undefined;
      collector.chunkSteps(chunk);
    } else if (!dueToDequeue) {
      reader._readRequests.remove(held as HeldRead<R>);
    }
    if (pullCompletion !== undefined) break;
    pullCompletion = null;
    // The pull is over. [[pullAgain]] set by its own enqueues is settled here, as the standard settles it once the
    // pull's promise fulfils: it pulls again only if ReadableStreamDefaultControllerShouldCallPull still holds. Left
    // set, the next dequeue would take it for a pull that dequeue asked for, though a dequeue that leaves the queue
    // wanting nothing (a chunk of size 0, say) asks for none.
    if (controller._pullAgain && !ReadableStreamDefaultControllerShouldCallPull(controller)) {
      controller._pullAgain = false;
    }
    const after = controller._queue.length;
    if (!read && after === before && stream._state === "readable") {
      if (dueToDequeue) continue;
      pulledNothing = true;
      break;
    }
    if (dueToDequeue && before === 0 && after === 1 && stream._state === "readable") {
      pullCompletion = pullOneByOne(stream, controller, collector, underlyingPull);
      if (pullCompletion !== undefined) break;
      pullCompletion = null;
    }
  }
  if (pullCompletion !== null) {
    reactTo(pullCompletion, controller._onPullFulfilled, controller._onPullRejected);
    return false;
  }
  if (stream._state !== "readable") return false;
  controller._pulling = false;
  controller._pullAgain = false;
  if (pulledNothing) return true;
  refillSynchronously(controller);
  return false;
}

/**
 * The drain's steady state over a source that enqueues one chunk per pull: a pull due to the last dequeue
 * ([[pullAgain]]) put one chunk into the empty queue. Does what the drain's loop does with it, without its
 * bookkeeping: the next read takes the chunk, and while that dequeue asks for another pull and the sink wants more,
 * pulls again. Returns the completion of a pull that did not complete synchronously (the caller reacts to it), or
 * `undefined` when anything else happened (the pull enqueued no chunk or several, the stream closed or errored, the
 * sink has had enough): the drain's loop then carries on from that state.
 */
function pullOneByOne<R>(
  stream: ReadableStream<R>,
  controller: ReadableStreamDefaultController<R>,
  collector: ChunkSink<R>,
  underlyingPull: NonNullable<ReadableStreamDefaultController<R>["_underlyingPull"]>,
): ReturnType<typeof callForCompletion> {
  const queue = controller._queue;
  for (;;) {
    collector.chunkSteps(controller[tryDequeue]() as R);
    if (
      !controller._pullAgain ||
      stream._state !== "readable" ||
      controller._closeRequested ||
      controller._underlyingPull !== underlyingPull ||
      !collector.wantsMore()
    ) {
      return undefined;
    }
    controller._pullAgain = false;
    const completion = callForCompletion(underlyingPull.fn, underlyingPull.source, controller);
    if (completion !== undefined || queue.length !== 1 || stream._state !== "readable") return completion;
  }
}

/**
 * How many of the `wanted` oldest queued chunks can be dequeued in one range operation
 * (the `[dequeueMany]` method, which runs the after-dequeue steps once) with the same observable outcome as dequeuing
 * them one at a time, where every dequeue runs ReadableStreamDefaultControllerCallPullIfNeeded. Those steps are
 * inert until the last dequeue when the stream cannot pull (closing, not started) or a pull is already in
 * progress (they only set [[pullAgain]], and would set it at the last dequeue too, since desiredSize only grows
 * while chunks leave; with `drainHoldsPull` the [[pulling]] flag is the drain's own, not a pull in progress).
 * Otherwise they would call `pull` at the first dequeue after which desiredSize is
 * positive: with every size 1, at dequeue number floor(queueTotalSize - highWaterMark) + 1, so the range stops
 * there. Returns 1 (dequeue one chunk) when nothing larger is known to be equivalent.
 */
function bulkDequeueCount<R>(
  stream: ReadableStream<R>,
  controller: ReadableStreamDefaultController<R>,
  wanted: number,
  drainHoldsPull: boolean,
): number {
  if (wanted <= 1) return 1;
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) || !controller._started) return wanted;
  if (ReadableStreamGetNumReadRequests(stream) > 0) return 1;
  if (controller._pulling && !drainHoldsPull) return wanted;
  const queue = controller._queue;
  if (!queue.hasUnitSizes || !Number.isSafeInteger(queue.totalSize)) return 1;
  return Math.max(1, Math.min(wanted, Math.floor(queue.totalSize - controller._strategyHWM) + 1));
}

/**
 * What ReadableStreamDefaultControllerCallPullIfNeeded does after a dequeue, except that a pull that completes
 * synchronously is finished at once (no microtask), and pulling repeats while pulls keep completing synchronously
 * and asking for another pull, as the standard's [[pullAgain]] does: a pull after which no further pull is due
 * (one that enqueued nothing, or filled the queue) is the last.
 */
function refillSynchronously<R>(controller: ReadableStreamDefaultController<R>): void {
  for (let pulls = 0; pulls < MAX_REFILL_PULLS; pulls++) {
    const underlyingPull = controller._underlyingPull;
    if (underlyingPull === undefined || !ReadableStreamDefaultControllerShouldCallPull(controller)) return;
    controller._pulling = true;
    controller._pullAgain = false;
    const completion = callForCompletion(underlyingPull.fn, underlyingPull.source, controller);
    if (completion !== undefined) {
      controller._pullSettled = false;
      reactTo(completion, controller._onPullFulfilled, controller._onPullRejected);
      return;
    }
    controller._pulling = false;
    const again = controller._pullAgain;
    controller._pullAgain = false;
    if (!again) return;
  }
  ReadableStreamDefaultControllerCallPullIfNeeded(controller);
}

/** Bound on the synchronous pulls of one refill. */
const MAX_REFILL_PULLS = 1024;
