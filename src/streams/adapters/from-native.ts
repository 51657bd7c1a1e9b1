/**
 * Adapts a platform `ReadableStream` of bytes (`request.body` in workerd, a `fetch` body in Node) as a drainpipe
 * byte stream that reads from it in large pieces.
 * @module
 */

import "../platform-types.ts";
import type { ReadableStream as DrainpipeReadableStream } from "../engine/readable-stream.ts";
import type { BufferPool } from "./buffer-pool.ts";
import { checkReadPace, type ReadPace, ReadTimeoutError, readDeadline } from "./read-pace.ts";
import { type FillResult, type SizedByteSource, sizedByteStream } from "./sized-byte-stream.ts";

/** Scratch space of one discarding read while draining. */
const DISCARD_BYTES = 64 * 1024;

/** Options of {@link fromNativeStream}. */
export interface FromNativeOptions {
  /**
   * Bytes each default-reader read of the adapted stream waits for (default 1 MiB: `DEFAULT_CHUNK_SIZE` of
   * sized-byte-stream.ts).
   */
  readSize?: number;
  /** Takes default-reader buffers from this pool (its `bufferSize` is then the read size). */
  pool?: BufferPool;
  /**
   * When the adapted stream is cancelled, first read and discard up to this many more bytes of `native`, and
   * cancel it only if it has not ended by then (default 0: cancel at once). For an HTTP request body: a server
   * that answers before the client has sent the whole body may lose the answer on the way (HTTP/1.1 clients and
   * proxies such as `wrangler dev` often do not read a response while still sending), so it drains first.
   */
  drainOnCancel?: number;
  /**
   * Gives up on `native` when a read of it misses the pace's deadline (draining reads included): the adapted
   * stream then errors with a {@link ReadTimeoutError} and `native` is cancelled with it. Default: no deadline.
   */
  pace?: ReadPace;
}

interface NativeReadResult<T> {
  done: boolean;
  value: T | undefined;
}

interface NativeReader {
  cancel(reason?: unknown): Promise<void>;
}

interface NativeByobReader extends NativeReader {
  read(view: Uint8Array<ArrayBuffer>): Promise<NativeReadResult<Uint8Array<ArrayBuffer>>>;
  /** workerd: resolves once `minBytes` are read, or with fewer when the stream ends. */
  readAtLeast?(minBytes: number, view: Uint8Array<ArrayBuffer>): Promise<NativeReadResult<Uint8Array<ArrayBuffer>>>;
}

interface NativeDefaultReader extends NativeReader {
  read(): Promise<NativeReadResult<unknown>>;
}

interface NativeStream {
  readonly locked: boolean;
  getReader(options: { mode: "byob" }): NativeByobReader;
  getReader(): NativeDefaultReader;
}

/**
 * A drainpipe byte stream over the platform stream `native`, which it locks at once. Each read of the
 * adapted stream fills its whole buffer unless the native stream ends first: a default-reader read waits for
 * `readSize` bytes, a BYOB read for the whole view it passes. Native byte streams are read with BYOB reads into
 * that buffer (workerd's `readAtLeast(rest, view)` where available, so one native read per buffer; elsewhere
 * plain BYOB reads, each taking all bytes queued so far), other native streams with default reads whose chunks
 * are copied in. Exactly one native read is pending at a time.
 * Cancelling the adapted stream cancels `native` with the same reason (after draining up to `drainOnCancel`
 * bytes, once any read in progress has finished); an error of `native` errors the adapted stream with the same
 * error.
 *
 * @example
 * ```ts
 * declare const request: Request;
 * const body = fromNativeStream(request.body!); // 1 MiB per read instead of workerd's 4 KiB
 * let total = 0;
 * for await (const chunk of body) total += chunk.byteLength;
 * ```
 */
export function fromNativeStream(
  native: ReadableStream<Uint8Array>,
  options: FromNativeOptions = {},
): DrainpipeReadableStream<Uint8Array> {
  const stream = native as unknown as NativeStream;
  if (stream.locked) throw new TypeError("Cannot adapt the native stream: it is locked to a reader");
  const source = byobSource(stream) ?? defaultSource(stream.getReader());
  const drainBytes = options.drainOnCancel ?? 0;
  if (!(drainBytes >= 0)) throw new RangeError(`Cannot drain ${drainBytes} bytes on cancel: expected 0 or more`);
  const paced = options.pace === undefined ? source : withReadPace(source, checkReadPace(options.pace));
  return sizedByteStream(withDrainOnCancel(paced, drainBytes), { chunkSize: options.readSize, pool: options.pool });
}

/** A source whose native reader also offers one discarding read, for draining. */
interface NativeSource extends SizedByteSource {
  /** Reads once into scratch space; resolves with the bytes read, or `null` at the end of the stream. */
  discardOnce(): Promise<number | null>;
  /** Cancels the native reader. */
  cancel(reason?: unknown): Promise<void>;
}

/**
 * `source` with a deadline on each read (see {@link ReadPace}): a read that misses it rejects with a
 * {@link ReadTimeoutError}, which also cancels the native reader, and every later read rejects with the same error.
 */
function withReadPace(source: NativeSource, pace: ReadPace): NativeSource {
  let timedOut: ReadTimeoutError | undefined;
  function timed<T>(bytes: number, read: () => T | PromiseLike<T>): Promise<T> {
    if (timedOut !== undefined) return Promise.reject(timedOut);
    const timeoutMs = readDeadline(pace, bytes);
    let expire!: (error: ReadTimeoutError) => void;
    const expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    const timer = setTimeout(() => {
      timedOut = new ReadTimeoutError(bytes, timeoutMs);
      source.cancel(timedOut).catch(() => undefined);
      expire(timedOut);
    }, timeoutMs);
    return Promise.race([read(), expired]).finally(() => clearTimeout(timer));
  }
  return {
    fill: (view) => timed(view.byteLength, () => source.fill(view)),
    discardOnce: () => timed(DISCARD_BYTES, () => source.discardOnce()),
    cancel: (reason) => (timedOut === undefined ? source.cancel(reason) : Promise.resolve()),
  };
}

/**
 * `source`, whose cancel waits for a fill in progress (the native reader allows one read at a time), then reads
 * and discards up to `drainBytes` bytes, and cancels the native stream only if it has not ended.
 */
function withDrainOnCancel(source: NativeSource, drainBytes: number): SizedByteSource {
  if (drainBytes === 0) return source;
  let filling: Promise<unknown> = Promise.resolve();
  return {
    fill(view) {
      const result = source.fill(view);
      filling = Promise.resolve(result).catch(() => undefined);
      return result;
    },
    async cancel(reason) {
      await filling;
      let budget = drainBytes;
      while (budget > 0) {
        const read = await source.discardOnce().catch(() => null);
        if (read === null) return;
        budget -= read;
      }
      await source.cancel(reason);
    },
  };
}

/** A BYOB reader of `stream`, or `undefined` when `stream` is not a byte stream. */
function byobReader(stream: NativeStream): NativeByobReader | undefined {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    return undefined;
  }
}

/**
 * Fills views with BYOB reads until full or ended; `undefined` when `stream` is not a byte stream. Where the
 * reader has workerd's `readAtLeast`, each read asks for the rest of the view. Elsewhere reads do not pass
 * `{ min }`: under the standard, a read whose `min` exceeds the bytes still queued in a stream whose source has
 * already called `close()` errors that stream and loses those bytes (Node does so with `new Response(bytes).body`).
 */
function byobSource(stream: NativeStream): NativeSource | undefined {
  const reader = byobReader(stream);
  if (reader === undefined) return undefined;
  const readAtLeast = reader.readAtLeast;
  const readInto =
    readAtLeast === undefined
      ? (view: Uint8Array<ArrayBuffer>) => reader.read(view)
      : (view: Uint8Array<ArrayBuffer>) => readAtLeast.call(reader, view.byteLength, view);
  let ended = false;
  let scratch: Uint8Array<ArrayBuffer> | undefined;

  return {
    async fill(view): Promise<FillResult> {
      if (ended) return 0;
      const { byteOffset, byteLength } = view;
      let buffer = view.buffer;
      let filled = 0;
      while (filled < byteLength) {
        const { done, value } = await readInto(new Uint8Array(buffer, byteOffset + filled, byteLength - filled));
        if (value === undefined) throw new TypeError("Cannot read the native stream: it was cancelled during a read");
        buffer = value.buffer;
        filled += value.byteLength;
        if (done) {
          ended = true;
          break;
        }
      }
      return new Uint8Array(buffer, byteOffset, filled);
    },
    async discardOnce() {
      if (ended) return null;
      const { done, value } = await readInto(scratch ?? new Uint8Array(DISCARD_BYTES));
      scratch = value === undefined ? undefined : new Uint8Array(value.buffer);
      if (done) ended = true;
      return done && (value === undefined || value.byteLength === 0) ? null : (value?.byteLength ?? 0);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  };
}

/** Fills views by copying the chunks of default reads, keeping the rest of a chunk for the next view. */
function defaultSource(reader: NativeDefaultReader): NativeSource {
  let rest: Uint8Array | undefined;
  let ended = false;
  return {
    async fill(view): Promise<FillResult> {
      let filled = 0;
      while (filled < view.byteLength) {
        if (rest === undefined) {
          if (ended) break;
          const { done, value } = await reader.read();
          if (done) {
            ended = true;
            break;
          }
          rest = bytesOf(value);
        }
        const count = Math.min(rest.byteLength, view.byteLength - filled);
        view.set(rest.subarray(0, count), filled);
        filled += count;
        rest = count === rest.byteLength ? undefined : rest.subarray(count);
      }
      return filled;
    },
    async discardOnce() {
      if (ended) return null;
      const { done, value } = await reader.read();
      if (done) ended = true;
      return done ? null : bytesOf(value).byteLength;
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  };
}

function bytesOf(chunk: unknown): Uint8Array {
  if (!ArrayBuffer.isView(chunk)) {
    throw new TypeError(`Cannot adapt a native stream chunk: it is ${typeof chunk}, not an ArrayBufferView`);
  }
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
