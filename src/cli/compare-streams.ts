/** Where two byte streams first differ. */
export interface StreamDifference {
  /**
   * 0-based byte offset of the first differing byte (the shorter stream's length when one is a prefix of the
   * other).
   */
  offset: number;
  /** 1-based line of that byte. */
  line: number;
  /** 1-based column, in bytes, of that byte. */
  column: number;
  /** The expected stream's byte there; `undefined` when the expected stream ended. */
  expected: number | undefined;
  /** The actual stream's byte there; `undefined` when the actual stream ended. */
  actual: number | undefined;
}

const NEWLINE = 0x0a;

/**
 * Reads two byte streams side by side and finds their first difference, or `null` when they are equal.
 * Chunk boundaries may differ; memory use is one chunk of each. Both streams are cancelled once a difference
 * is found.
 *
 * @example
 * ```ts
 * declare const localFile: ReadableStream<Uint8Array>;
 * declare const storedContent: ReadableStream<Uint8Array>;
 * const difference = await firstDifference(localFile, storedContent);
 * if (difference) console.log(`differs at line ${difference.line}`);
 * ```
 */
export async function firstDifference(
  expected: ReadableStream<Uint8Array>,
  actual: ReadableStream<Uint8Array>,
): Promise<StreamDifference | null> {
  const left = new ChunkCursor(expected);
  const right = new ChunkCursor(actual);
  let offset = 0;
  let line = 1;
  let lineStart = 0;
  try {
    for (;;) {
      const [a, b] = await Promise.all([left.current(), right.current()]);
      if (a === undefined || b === undefined) {
        if (a === undefined && b === undefined) return null;
        return { offset, line, column: offset - lineStart + 1, expected: a?.[0], actual: b?.[0] };
      }
      const length = Math.min(a.length, b.length);
      const mismatch = firstMismatch(a, b, length);
      const compared = mismatch === -1 ? length : mismatch;
      for (let at = a.indexOf(NEWLINE); at !== -1 && at < compared; at = a.indexOf(NEWLINE, at + 1)) {
        line++;
        lineStart = offset + at + 1;
      }
      if (mismatch !== -1) {
        const position = offset + mismatch;
        return { offset: position, line, column: position - lineStart + 1, expected: a[mismatch], actual: b[mismatch] };
      }
      offset += length;
      left.advance(length);
      right.advance(length);
    }
  } finally {
    await Promise.all([left.cancel(), right.cancel()]);
  }
}

function firstMismatch(a: Uint8Array, b: Uint8Array, length: number): number {
  if (Buffer.from(a.buffer, a.byteOffset, length).equals(Buffer.from(b.buffer, b.byteOffset, length))) return -1;
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** The unread rest of a stream's current chunk, refilled from the stream on demand. */
class ChunkCursor {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunk: Uint8Array = new Uint8Array(0);
  #done = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** The unread bytes of the current chunk (never empty), or `undefined` at the end of the stream. */
  async current(): Promise<Uint8Array | undefined> {
    while (this.#chunk.length === 0 && !this.#done) {
      const { done, value } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#chunk = value;
    }
    return this.#chunk.length === 0 ? undefined : this.#chunk;
  }

  /** Marks `count` bytes of the current chunk as read. */
  advance(count: number): void {
    this.#chunk = this.#chunk.subarray(count);
  }

  /** Cancels the stream unless it has ended. */
  async cancel(): Promise<void> {
    if (!this.#done) await this.#reader.cancel().catch(() => undefined);
  }
}
