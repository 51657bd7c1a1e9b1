/**
 * drainpipe's `pipeTo` into one of the host's own `WritableStream`s (see `host-streams.ts`): the host's own pipe,
 * fed by drainpipe's draining reads.
 * @module
 */

import "../platform-types.ts";
import { readableStreamDefaultReaderReadMany } from "./fast-paths/read-many.ts";
import { hostReadableStreamClass } from "./host-streams.ts";
import { AcquireReadableStreamDefaultReader, type ReadableStream } from "./readable-stream.ts";
import { ReadableStreamDefaultReaderRelease } from "./readable-stream-default-reader.ts";
import { ReadableStreamReaderGenericCancel } from "./readable-stream-generic-reader.ts";

/** The pipe options, converted (see `convertPipeOptions`). */
export interface HostPipeOptions {
  preventAbort: boolean;
  preventCancel: boolean;
  preventClose: boolean;
  signal: AbortSignal | undefined;
}

/**
 * Chunks per draining read of a pipe into a host stream: each batch is queued in the host's stream at once, and
 * some hosts dequeue with `Array.prototype.shift` (Node 20), which costs in proportion to what is queued, so a
 * batch of `readMany`'s default 65,536 chunks made 50,000 chunks through Node 20's `TextDecoderStream` take 3.6
 * times the CPU time of its own streams (1,024: the same). 1,024 chunks still spread a read's cost over many chunks,
 * and bound the read-ahead.
 */
export const HOST_BATCH_CHUNKS = 1024;

const HOST_BATCH = Object.freeze({ maxChunks: HOST_BATCH_CHUNKS });

/**
 * Pipes `source` into the host's `destination` and settles as the host's `pipeTo` does. `source` is locked for
 * the pipe's duration and read a batch at a time (`readMany`); each batch is queued at once in a host stream
 * (high-water mark 0, so nothing is read before the host's pipe asks for a chunk) that the host pipes with
 * `options`. So cancel, abort and errors cross as the standard's pipe has them: an error of `source` aborts
 * `destination` with that error, an error of `destination` cancels `source` with its error (unless prevented),
 * and the result rejects with the error that ended the pipe. Unlike the standard's pipe, which reads one chunk
 * per free slot of the destination, this one reads ahead by up to one batch ({@link HOST_BATCH_CHUNKS} chunks, at
 * most `readMany`'s default bytes): a source that ended within that batch is no longer cancelled when the
 * destination fails.
 */
export function pipeToHost<R>(
  source: ReadableStream<R>,
  destination: WritableStream<R>,
  options: HostPipeOptions,
): Promise<undefined> {
  const HostReadableStream = hostReadableStreamClass();
  const reader = AcquireReadableStreamDefaultReader(source);
  const bridge = new HostReadableStream<R>(
    {
      pull(controller) {
        return readableStreamDefaultReaderReadMany(reader, HOST_BATCH).then(({ chunks, done }) => {
          for (let i = 0; i < chunks.length; i++) controller.enqueue(chunks[i] as R);
          if (done) controller.close();
        });
      },
      cancel(reason) {
        if (reader._ownerReadableStream === undefined) return undefined;
        return ReadableStreamReaderGenericCancel(reader, reason);
      },
    },
    { highWaterMark: 0 },
  );
  const release = (): void => {
    if (reader._ownerReadableStream !== undefined) ReadableStreamDefaultReaderRelease(reader);
  };
  const { preventAbort, preventCancel, preventClose, signal } = options;
  return bridge
    .pipeTo(destination, signal === undefined ? { preventAbort, preventCancel, preventClose } : options)
    .then(
      () => {
        release();
        return undefined;
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
}
