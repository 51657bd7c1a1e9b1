/**
 * The `node:stream` pipeline of the Node `_writev` splitting article ("LineToNumber → NumberWriter with
 * `_writev`"), written here from its description: an accumulator `LineToNumber` Transform that pushes one
 * number per line, and a `NumberWriter` in object mode with `highWaterMark` 4096 whose `_writev` takes every
 * queued number at once.
 *
 * The article's first parser copied each line with `Buffer.copyBytesFrom(chunk, j, i)`, whose third argument
 * is a length, not an end index (about 16 KB copied per line). This module does not reproduce that bug: it is
 * the article's corrected accumulator design. Instead of `fs` files, `NumberWriter` rotates into parts through
 * drainpipe's split layer (`PartSplitter`), so it writes to the same store the other variants write to.
 *
 * @module
 */
import { Readable, Transform, type TransformCallback, Writable } from "node:stream";
import type { PartRecord, PartSplitter } from "../../src/split/part-splitter.ts";

const LF = 0x0a;
const ZERO = 0x30;

/**
 * Parses newline-separated non-negative decimal integers, one pushed number per line, folding digits into an
 * accumulator that survives chunk boundaries (no slices, no strings, no `parseInt`).
 */
export class LineToNumber extends Transform {
  #acc = 0;
  #inNumber = false;

  /** Byte input, object (number) output. */
  constructor() {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Uint8Array, _encoding: BufferEncoding, callback: TransformCallback): void {
    let acc = this.#acc;
    let inNumber = this.#inNumber;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF) {
        if (inNumber) {
          this.push(acc);
          acc = 0;
          inNumber = false;
        }
      } else {
        acc = acc * 10 + (byte - ZERO);
        inNumber = true;
      }
    }
    this.#acc = acc;
    this.#inNumber = inNumber;
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inNumber) this.push(this.#acc);
    callback();
  }
}

/** The article's writer queue depth: how many numbers one `_writev` call can receive. */
export const NUMBER_WRITER_HIGH_WATER_MARK = 4096;

/**
 * An object-mode `Writable` of numbers that batches whatever queued up while the previous write was busy
 * (`_writev`) and hands each batch to a {@linkcode PartSplitter}, which rotates into newline-aligned parts.
 */
export class NumberWriter extends Writable {
  readonly #splitter: PartSplitter;
  #batch = new Float64Array(NUMBER_WRITER_HIGH_WATER_MARK);
  /** The stored parts, set once the writer has finished. */
  parts: PartRecord[] = [];

  /** Writes into `splitter`, which the writer owns from now on. */
  constructor(splitter: PartSplitter) {
    super({ objectMode: true, highWaterMark: NUMBER_WRITER_HIGH_WATER_MARK });
    this.#splitter = splitter;
  }

  override _write(chunk: number, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#batch[0] = chunk;
    this.#hand(this.#batch.subarray(0, 1), callback);
  }

  override _writev(chunks: { chunk: number }[], callback: (error?: Error | null) => void): void {
    if (this.#batch.length < chunks.length) this.#batch = new Float64Array(chunks.length);
    const batch = this.#batch;
    for (let i = 0; i < chunks.length; i++) batch[i] = chunks[i]!.chunk;
    this.#hand(batch.subarray(0, chunks.length), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#splitter.close().then(
      (parts) => {
        this.parts = parts;
        callback();
      },
      (error: Error) => callback(error),
    );
  }

  #hand(numbers: Float64Array, callback: (error?: Error | null) => void): void {
    let wait: Promise<void> | undefined;
    try {
      wait = this.#splitter.write(numbers);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (wait) wait.then(() => callback(), callback);
    else callback();
  }
}

/**
 * A byte `Readable` that pushes `chunks` one per read, like `fs.createReadStream` over a file already in memory.
 */
export function nodeReadableOf(chunks: readonly Uint8Array[]): Readable {
  let next = 0;
  return new Readable({
    read() {
      const chunk = chunks[next++];
      this.push(chunk ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : null);
    },
  });
}
