/**
 * The first bytes of a stream of unknown size, read ahead to learn whether it ends within a limit (and so fits one
 * request) before deciding how to send it.
 *
 * @module
 */

/** A stream's first chunks, read ahead, and the whole stream again. */
export interface StreamHead {
  /** Bytes read ahead. */
  bytes: number;
  /** Whether the stream ended within the limit: then those bytes are all of it. */
  ended: boolean;
  /**
   * Every byte of the stream, the chunks read ahead first; cancelling it cancels the source, and it errors with the
   * signal's reason once the signal aborts.
   */
  stream: ReadableStream<Uint8Array>;
  /**
   * When the stream ended within the limit: all of it again, as a new stream of the same chunks, for sending it a
   * second time (the chunks stay held while the caller keeps this function). Absent otherwise: chunks passed on
   * through `stream` are let go.
   */
  again?: () => ReadableStream<Uint8Array>;
}

/**
 * Reads `source` until it ends or more than `limit` bytes have arrived, holding what it read, and calls `onRead` with
 * the bytes read so far after each chunk of it. An abort of `signal` cancels `source` (a pipe that stays open would
 * otherwise be waited on) and rejects with the signal's reason, here or in a later read of the returned stream.
 *
 * @example
 * ```ts
 * declare const stdin: ReadableStream<Uint8Array>;
 * const head = await readHead(stdin, 95_000_000, undefined, (bytes) => console.error(`${bytes} bytes held`));
 * if (head.ended) head.bytes; // the whole input's size: it fits one request
 * ```
 */
export async function readHead(
  source: ReadableStream<Uint8Array>,
  limit: number,
  signal?: AbortSignal,
  onRead?: (bytes: number) => void,
): Promise<StreamHead> {
  const reader = source.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener("abort", onAbort, { once: true });
  const stopListening = () => signal?.removeEventListener("abort", onAbort);
  const read = async () => {
    signal?.throwIfAborted();
    const result = await reader.read();
    signal?.throwIfAborted();
    return result;
  };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let ended = false;
  try {
    while (bytes <= limit) {
      const { done, value } = await read();
      if (done) {
        ended = true;
        stopListening();
        break;
      }
      chunks.push(value);
      bytes += value.byteLength;
      onRead?.(bytes);
    }
  } catch (error) {
    stopListening();
    await reader.cancel(error).catch(() => undefined);
    throw error;
  }
  let next = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        signal?.throwIfAborted();
        if (next < chunks.length) {
          controller.enqueue(chunks[next]!);
          if (!ended) chunks[next] = EMPTY; // passed on: let it go (all of a stream that ended is kept for `again`)
          next += 1;
          return;
        }
        const result = ended ? undefined : await read();
        if (result === undefined || result.done) {
          stopListening();
          controller.close();
        } else {
          controller.enqueue(result.value);
        }
      },
      cancel(reason) {
        stopListening();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  if (!ended) return { bytes, ended, stream };
  const again = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
  return { bytes, ended, stream, again };
}

/** What a chunk already passed on is replaced with. */
const EMPTY = new Uint8Array(0);
