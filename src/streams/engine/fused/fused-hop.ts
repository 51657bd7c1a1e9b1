/**
 * drainpipe's fused pipe chains (not in the standard). When pipes connect streams end to end (source → transform
 * streams → sink), each chunk crosses every transform stream as one call of its transformer: the pipe writing into a
 * transform stream runs the transformer in place, and the chunk it enqueues is written on by the pipe reading the
 * other side, at once, without the steps of either side's queue. A chain of synchronous transformers then moves a
 * chunk from its source to its sink in one synchronous pass.
 *
 * It is equivalent to the standard's algorithms because it only does so where nothing can observe the difference,
 * and puts the standard's state in place before anything could:
 *
 * - **The writable side** of a transform stream is locked by the pipe writing into it, and has no controller a
 *   transformer can reach. While it is idle (nothing queued or in flight), the pipe runs the transformer as the
 *   side's sink would (`TransformStreamDefaultControllerPerformTransform`) without queueing the write. If the
 *   transformer errors the stream or terminates it, TransformStreamErrorWritableAndUnblockWrite first puts the write
 *   in flight as the standard has it at that point ({@link materializeFusedWrite}); a transform that does not
 *   complete synchronously is put in flight once it has returned, and settles through the standard's steps.
 * - **The readable side** is read by a pipe whose read request waits, with nothing queued and the default
 *   high-water mark of 0: the first chunk the transformer enqueues would fulfil that read, after which the pipe
 *   would write the chunk and read again, leaving the side as it was. The hop holds that chunk instead
 *   ({@link holdFusedChunk}) and has the pipe write it once the transformer has returned. Anything else that acts on
 *   the side first replays the enqueue the hold stood for ({@link releaseFusedRead}): a second enqueue, `error()`,
 *   `terminate()`, a transform that does not complete synchronously; and if the pipe does not want to read again
 *   after writing the chunk (its destination is full, it is shutting down), the read is taken back as the standard
 *   took it.
 *
 * - **Entering and leaving.** A write that had to wait for backpressure resumes on a microtask, as the standard's
 *   reaction does, so that a chain driven by a synchronous source reaches the state above; after a transform that
 *   could not cross in place the next writes take the standard path for a while ({@link FusedHop.backOff}), so a
 *   transformer that is never synchronous pays nothing. Pipes with an abort signal never take chunks in place (a
 *   signal can shut a pipe down in the middle of a hop).
 *
 * - **Into a `writev` sink.** The pipe at the end of a chain holds the chunks its waiting read is handed in place
 *   and writes them as one batch, as an unfused pipe writes what it drained: no more than the sink's `desiredSize`
 *   allows (see `Pipe.writeReadInPlace` in `readable-stream-pipe-to.ts`).
 *
 * What the transformer observes (`desiredSize`, the result of `enqueue`), the order of every callback, the chunks
 * and the final state of every stream are the standard's; what changes is when the pipes move chunks, which the
 * standard leaves to the implementation.
 * @module
 */

import { type LazyDeferred, reactTo } from "../../base/completion.ts";
import { isCountOne } from "../../standard/queuing-strategy.ts";
import { isPipedAndIdle } from "../fast-paths/piped-writes.ts";
import type { ReadableStream } from "../readable-stream.ts";
import {
  type ReadableStreamDefaultController,
  ReadableStreamDefaultControllerCallPullIfNeeded,
  ReadableStreamDefaultControllerHasBackpressure,
} from "../readable-stream-default-controller.ts";
import type { ReadableStreamDefaultReader, ReadRequest } from "../readable-stream-default-reader.ts";
import { type TransformStream, TransformStreamSetBackpressure } from "../transform-stream.ts";
import {
  TransformStreamDefaultControllerEnqueue,
  TransformStreamDefaultControllerPerformTransform,
} from "../transform-stream-default-controller.ts";
import { type WritableStream, WritableStreamUpdateBackpressure, type WriteRequest } from "../writable-stream.ts";
import {
  WritableStreamDefaultControllerAdvanceQueueIfNeeded,
  WritableStreamDefaultControllerGetBackpressure,
  writableStreamDefaultControllerAfterSinkWrite,
} from "../writable-stream-default-controller.ts";

/** A pipe writing into a transform stream, as a fused hop sees it. */
export interface FusedWriter extends WriteRequest {
  /** Settles one of its writes that completed in place (its request was not used). */
  settleWriteInPlace(): void;
}

/** A pipe reading a transform stream's readable side, as a fused hop sees it. */
export interface FusedReader<R> extends ReadRequest<R> {
  /**
   * Whether its read request is the one waiting and nothing else is going on in it (no abort signal, no
   * shutdown, no chunk waiting to be written), so that a chunk may be handed to it in place.
   */
  canReadInPlace(): boolean;
  /**
   * Writes `chunk`, the chunk its waiting read would have received. Returns whether it then reads again at once, as
   * the standard's pipe does while its destination wants chunks.
   */
  writeReadInPlace(chunk: R): boolean;
  /**
   * Its waiting read was fulfilled by a chunk it has written: it no longer reads, and goes on as the standard's
   * pipe.
   */
  readTakenBack(): void;
  /** Whether it may ever take chunks in place (it has no abort signal and is not shutting down). */
  mayReadInPlace(): boolean;
}

/** The state of the fused hop through one transform stream, reused for every chunk. */
export class FusedHop<I, O> {
  /** The request of the write made in place while the transformer runs; the writable side does not know of it. */
  writeRequest: WriteRequest | undefined = undefined;
  /** The chunk of that write. */
  chunk: I | undefined = undefined;
  /** The pipe whose waiting read the hop may fulfil in place, while it may. */
  reader: FusedReader<O> | undefined = undefined;
  /**
   * The pipe last found reading the readable side (a read request that is this object is that pipe's: a released
   * pipe's requests leave with its reader).
   */
  lastReader: FusedReader<O> | undefined = undefined;
  /** A chunk is held for {@link FusedHop.reader}. */
  holding = false;
  /** The chunk held. */
  held: O | undefined = undefined;
  /** The held chunk is being written by the reader. */
  delivering = false;
  /**
   * The last transform could not cross in place: it did not complete synchronously, or enqueued a second chunk.
   * Writes waiting for backpressure then resume as before (see {@link resumesForFusedRead}).
   */
  declined = false;
  /**
   * Writes left to make the standard way (no in-place write, no held read) after a transform that could not cross
   * in place, before trying again: a transformer that is never synchronous then pays nothing for the attempts.
   */
  backOff = 0;
}

/** How many writes into a transform stream go the standard way after a transform that could not cross in place. */
const BACK_OFF_WRITES = 64;

/** Transform streams by their writable side, so that a pipe can find the transformer behind its destination. */
const transformsByWritable = new WeakMap<WritableStream<never>, TransformStream<never, never>>();
/** The pipe reading each piped readable stream. */
const readersBySource = new WeakMap<ReadableStream<unknown>, FusedReader<unknown>>();

/** Records `stream` as the transform stream behind its writable side (called once, as it is set up). */
export function registerTransformStream<I, O>(stream: TransformStream<I, O>): void {
  transformsByWritable.set(
    stream._writable as WritableStream<never>,
    stream as unknown as TransformStream<never, never>,
  );
}

/** The transform stream whose writable side is `writable`, if it is one. */
export function transformStreamOf<W>(writable: WritableStream<W>): TransformStream<W, unknown> | undefined {
  return transformsByWritable.get(writable as WritableStream<never>) as TransformStream<W, unknown> | undefined;
}

/** Records `reader` as the pipe reading `source`, until {@link forgetFusedReader}. */
export function registerFusedReader<R>(source: ReadableStream<R>, reader: FusedReader<R>): void {
  readersBySource.set(source as ReadableStream<unknown>, reader as FusedReader<unknown>);
}

/** Forgets the pipe reading `source` (it has finished). */
export function forgetFusedReader<R>(source: ReadableStream<R>): void {
  readersBySource.delete(source as ReadableStream<unknown>);
}

/**
 * Whether a write into `stream`'s writable side waiting for backpressure to lift should resume on a microtask, as
 * the standard's reaction to the backpressure change does, rather than at once (drainpipe resumes it inside the pull
 * that lifted backpressure when both sides are piped): when the pipe reading the other side may take chunks in
 * place, that pipe has then finished its read, and the transformer's output can cross in place. Not after a
 * transform that could not have crossed in place anyway ({@link FusedHop.declined}).
 */
export function resumesForFusedRead<I, O>(stream: TransformStream<I, O>): boolean {
  if (stream._fusedHop?.declined === true) return false;
  const reader = readersBySource.get(stream._readable as ReadableStream<unknown>);
  return reader?.mayReadInPlace() === true;
}

/**
 * Whether a write into `stream`'s writable side would run the transformer at once and nothing can observe the
 * writable side meanwhile: a pipe holds the lock (its writes complete synchronously), the side is writable, started
 * and idle (nothing queued or in flight, no close), sizes every chunk 1 with the default algorithm (sizing runs no
 * code), there is no backpressure (the standard would wait for it to lift), and no fused hop is under way.
 */
function canTransformInPlace<I, O>(stream: TransformStream<I, O>): boolean {
  const writable = stream._writable;
  const hop = stream._fusedHop;
  return (
    stream._backpressure === false &&
    isPipedAndIdle(writable) &&
    isCountOne(writable._writableStreamController._strategySizeAlgorithm) &&
    stream._transformStreamController._transformAlgorithm !== undefined &&
    (hop === undefined || (hop.writeRequest === undefined && hop.reader === undefined))
  );
}

/**
 * The pipe whose waiting read the first chunk `stream`'s transformer enqueues would fulfil, when handing it that
 * chunk in place, writing it and reading again leaves the readable side as it was: the side is readable, started,
 * not closing, empty, has a high-water mark of 0 and sizes every chunk 1 with the default algorithm; the pipe's read
 * is the only one waiting; and the pull that read made is in progress, waiting (with no other party) for
 * backpressure to change, so that the enqueue would finish it and the next read start it again.
 */
function readerInPlace<I, O>(stream: TransformStream<I, O>, hop: FusedHop<I, O>): FusedReader<O> | undefined {
  const readable = stream._readable;
  if (readable._state !== "readable") return undefined;
  const controller = readable._readableStreamController as ReadableStreamDefaultController<O>;
  if (
    !controller._started ||
    controller._closeRequested ||
    controller._queue.length !== 0 ||
    controller._strategyHWM !== 0 ||
    !isCountOne(controller._strategySizeAlgorithm) ||
    !controller._pulling ||
    controller._pullAgain ||
    controller._staleReactions !== 0 ||
    !(stream._backpressureChangePromise?.isObservedOnlyBy(controller._onPullFulfilled) ?? false)
  ) {
    return undefined;
  }
  const requests = (readable._reader as ReadableStreamDefaultReader<O> | undefined)?._readRequests;
  if (requests === undefined || requests.length !== 1) return undefined;
  const waiting = requests.peek();
  let reader = hop.lastReader;
  if (waiting !== reader) {
    reader = readersBySource.get(readable as ReadableStream<unknown>) as FusedReader<O> | undefined;
    if (reader === undefined || waiting !== reader) return undefined;
    hop.lastReader = reader;
  }
  return reader.canReadInPlace() ? reader : undefined;
}

/**
 * Writes `chunk` into `stream`'s writable side for `writer`, fused, when that is equivalent to the standard's write
 * (see the module). Returns `false` when it is not (the caller writes through its writer). Otherwise the write was
 * made: settled through {@link FusedWriter.settleWriteInPlace} when it completed at once, else in flight with
 * `writer` as its request.
 */
export function writeFused<I, O>(stream: TransformStream<I, O>, chunk: I, writer: FusedWriter): boolean {
  let hop = stream._fusedHop;
  if (hop !== undefined && hop.backOff > 0) {
    hop.backOff -= 1;
    return false;
  }
  if (!canTransformInPlace(stream)) return false;
  if (hop === undefined) {
    hop = new FusedHop<I, O>();
    stream._fusedHop = hop;
  }
  hop.reader = readerInPlace(stream, hop);
  hop.writeRequest = writer;
  hop.chunk = chunk;
  hop.declined = false;
  const completion = TransformStreamDefaultControllerPerformTransform(stream._transformStreamController, chunk);
  if (completion !== undefined) hop.declined = true;
  if (hop.declined) hop.backOff = BACK_OFF_WRITES;
  let settled = false;
  if (hop.writeRequest !== undefined) {
    if (completion === undefined) {
      hop.writeRequest = undefined;
      hop.chunk = undefined;
      settled = true;
    } else {
      materializeFusedWrite(stream);
    }
  }
  if (settled) {
    writer.settleWriteInPlace();
  } else {
    const controller = stream._writable._writableStreamController;
    if (writableStreamDefaultControllerAfterSinkWrite(controller, completion)) {
      WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    }
  }
  if (hop.reader !== undefined) finishFusedRead(stream, hop, settled);
  return true;
}

/**
 * Runs the transformer for the write that waited for `stream`'s backpressure to lift (queued and in flight on the
 * writable side, as the standard has it), holding its first chunk for the pipe reading the other side when that is
 * equivalent (see the module), then settles `result` with the transform's outcome. The held chunk is written on
 * first: the writer's next write, which settling may start at once, then finds the hop finished.
 */
export function transformParkedWrite<I, O>(
  stream: TransformStream<I, O>,
  chunk: I,
  result: LazyDeferred<undefined>,
): void {
  let hop = stream._fusedHop;
  if (hop === undefined) {
    hop = new FusedHop<I, O>();
    stream._fusedHop = hop;
  }
  let armed = false;
  if (hop.writeRequest === undefined && hop.reader === undefined) {
    if (hop.backOff > 0) hop.backOff -= 1;
    else {
      hop.reader = readerInPlace(stream, hop);
      armed = hop.reader !== undefined;
    }
  }
  hop.declined = false;
  const completion = TransformStreamDefaultControllerPerformTransform(stream._transformStreamController, chunk);
  if (completion !== undefined) hop.declined = true;
  if (hop.declined) hop.backOff = BACK_OFF_WRITES;
  if (armed && hop.reader !== undefined) finishFusedRead(stream, hop, completion === undefined);
  if (completion === undefined) result.resolve(undefined);
  else
    reactTo(
      completion,
      () => result.resolve(undefined),
      (reason) => result.reject(reason),
    );
}

/**
 * Puts the write a fused hop is making into `stream`'s writable side as the standard has it while the sink runs:
 * queued (size 1), backpressure updated, its request in flight. Called before anything acts on the writable side
 * during the hop (see TransformStreamErrorWritableAndUnblockWrite); does nothing when no such write is under way.
 */
export function materializeFusedWrite<I, O>(stream: TransformStream<I, O>): void {
  const hop = stream._fusedHop;
  const request = hop?.writeRequest;
  if (hop === undefined || request === undefined) return;
  const chunk = hop.chunk as I;
  hop.writeRequest = undefined;
  hop.chunk = undefined;
  const writable = stream._writable;
  const controller = writable._writableStreamController;
  controller._queue.enqueueUnit(chunk);
  WritableStreamUpdateBackpressure(writable, WritableStreamDefaultControllerGetBackpressure(controller));
  writable._inFlightWriteRequest = request;
  controller._inFlightCount = 1;
}

/**
 * Called by TransformStreamDefaultControllerEnqueue: holds `chunk` for the waiting read of a fused hop's reader,
 * when it is the first chunk the transformer enqueues (`true`: the enqueue is done). Otherwise replays the hold
 * first ({@link releaseFusedRead}) and returns `false` (the caller enqueues as the standard does).
 */
export function holdFusedChunk<I, O>(stream: TransformStream<I, O>, chunk: O): boolean {
  const hop = stream._fusedHop as FusedHop<I, O>;
  if (!hop.holding) {
    hop.holding = true;
    hop.held = chunk;
    return true;
  }
  hop.declined = true;
  releaseFusedRead(stream);
  return false;
}

/**
 * Ends a fused hop's hold on `stream`'s readable side, putting the standard's state in place: the enqueue the held
 * chunk stood for is made (fulfilling the reader's waiting read), or, when the reader is already writing that chunk,
 * the read is taken back. Called before anything else acts on the readable side during the hop; does nothing when
 * no hold is under way.
 */
export function releaseFusedRead<I, O>(stream: TransformStream<I, O>): void {
  const hop = stream._fusedHop;
  const reader = hop?.reader;
  if (hop === undefined || reader === undefined) return;
  hop.reader = undefined;
  if (!hop.holding) return;
  const held = hop.held as O;
  hop.holding = false;
  hop.held = undefined;
  if (hop.delivering) {
    hop.delivering = false;
    takeReadBack(stream);
  } else {
    TransformStreamDefaultControllerEnqueue(stream._transformStreamController, held);
  }
}

/** After the transformer returned: has the reader write the chunk held for it, or gives the hold up. */
function finishFusedRead<I, O>(stream: TransformStream<I, O>, hop: FusedHop<I, O>, settled: boolean): void {
  const reader = hop.reader as FusedReader<O>;
  if (!hop.holding) {
    // Nothing enqueued: the read still waits, as in the standard.
    hop.reader = undefined;
    return;
  }
  if (!settled) {
    releaseFusedRead(stream);
    return;
  }
  hop.delivering = true;
  const held = hop.held as O;
  const again = reader.writeReadInPlace(held);
  if (hop.reader === undefined) {
    // Released while the reader wrote: the read was taken back meanwhile.
    reader.readTakenBack();
    return;
  }
  hop.reader = undefined;
  hop.holding = false;
  hop.held = undefined;
  hop.delivering = false;
  if (!again) {
    takeReadBack(stream);
    reader.readTakenBack();
  }
}

/**
 * The steps TransformStreamDefaultControllerEnqueue took when the held chunk fulfilled the waiting read, but for
 * handing it over (the reader has it): the read request is removed, pulling considered, backpressure updated.
 */
function takeReadBack<I, O>(stream: TransformStream<I, O>): void {
  const readable = stream._readable;
  const controller = readable._readableStreamController as ReadableStreamDefaultController<O>;
  (readable._reader as ReadableStreamDefaultReader<O>)._readRequests.shift();
  ReadableStreamDefaultControllerCallPullIfNeeded(controller);
  if (ReadableStreamDefaultControllerHasBackpressure(controller) !== stream._backpressure) {
    TransformStreamSetBackpressure(stream, true);
  }
}
