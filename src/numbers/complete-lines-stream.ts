/**
 * Bytes cut at arbitrary offsets (a tus PATCH, a slice of a file) turned back into whole lines: the stream passes
 * on every line that ends inside what it was given, holds the incomplete line at the end, and hands that line over
 * as the {@linkcode HeldLine} the next piece starts with.
 *
 * A held line is kept small whatever its length: a run of leading zeros (`0000…7`, `-000…`) is shortened to one
 * zero, and the stream records where, so that a parse error's line, column and offset can be told in the original
 * bytes ({@linkcode CompleteLinesStream.originalPosition}). Any other line longer than the longest valid line is
 * invalid whatever follows, so it is passed on as it is, for the parser to find its error where it lies.
 *
 * @module
 */
import { TransformStream } from "../streams/engine/transform-stream.ts";
import type { TransformStreamDefaultController } from "../streams/engine/transform-stream-default-controller.ts";

const LF = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * The longest valid line without its line break once its leading zeros are shortened to one: `-`, `0`, 16 digits
 * (2^53 − 1 has 16) and `\r`.
 */
export const LONGEST_HELD_LINE = 19;

/** Bytes a held line may reach before its leading zeros are shortened (by default). */
const COMPACT_AT = 64 * 1024;

/** An incomplete last line: its bytes (leading zeros shortened to one) and how many zeros were removed. */
export interface HeldLine {
  /** The line's bytes so far, with a run of leading zeros shortened to one. */
  bytes: Uint8Array;
  /** Zeros removed from the line's leading run. */
  skipped: number;
}

/** A line whose leading zeros were shortened: where, in the stream's output, and by how many bytes. */
interface Compaction {
  /** The output offset where the line starts. */
  lineStart: number;
  /** The column of the zero that was kept, 1-based. */
  column: number;
  /** The output offset of the zero that was kept. */
  offset: number;
  /** Zeros removed after it. */
  skipped: number;
}

/** A position in the stream's output, as a parse error gives it. */
export interface LinePosition {
  /** 1-based line. */
  line: number;
  /** 1-based byte column. */
  column: number;
  /** 0-based byte offset. */
  offset: number;
}

/** An empty held line: what a piece that starts at a line start begins with. */
export const NO_HELD_LINE: HeldLine = { bytes: new Uint8Array(0), skipped: 0 };

/**
 * Passes on the complete lines of what it is given, starting with `held` (the previous piece's incomplete line).
 * With `complete: true` the incomplete last line is passed on at the end too (the input's end is the file's);
 * otherwise it is kept, and {@linkcode CompleteLinesStream.held} gives it once the stream has closed.
 *
 * @example
 * ```ts
 * const cut = new CompleteLinesStream({ held: NO_HELD_LINE, complete: false });
 * const writer = cut.writable.getWriter();
 * writer.write(new TextEncoder().encode("12\n34"));
 * writer.close();
 * // cut.readable yields "12\n"; afterwards cut.held.bytes is "34"
 * ```
 */
export class CompleteLinesStream extends TransformStream<Uint8Array, Uint8Array> {
  #heldChunks: Uint8Array[] = [];
  #heldLength = 0;
  #heldSkipped = 0;
  /** Whether the current line is passed on as it arrives (it is too long to be valid). */
  #passing = false;
  #outputBytes = 0;
  #inputBytes = 0;
  readonly #compactions: Compaction[] = [];
  readonly #compactAt: number;
  #closed = false;

  /**
   * Starts with `held` in front of the input. `complete` (or its answer at the input's end, when it is a function)
   * passes on the last line at the end too. `compactAt` is the length a held line may reach before its leading zeros
   * are shortened (default 64 KiB; at the end of the input they always are).
   */
  constructor({
    held,
    complete,
    compactAt = COMPACT_AT,
  }: {
    held: HeldLine;
    complete: boolean | (() => boolean);
    compactAt?: number;
  }) {
    super({
      transform: (chunk, controller) => this.#take(chunk, controller),
      flush: (controller) => {
        if (typeof complete === "function" ? complete() : complete) this.#release(controller);
        else this.#compact();
        this.#closed = true;
      },
    });
    if (held.bytes.byteLength > 0) {
      this.#heldChunks.push(held.bytes);
      this.#heldLength = held.bytes.byteLength;
    }
    this.#heldSkipped = held.skipped;
    this.#compactAt = compactAt;
  }

  /** The incomplete line the input ended with, once the stream has closed (empty after a complete input). */
  get held(): HeldLine {
    if (!this.#closed) throw new TypeError("Cannot take the held line: the stream has not closed yet");
    return { bytes: concat(this.#heldChunks, this.#heldLength), skipped: this.#heldSkipped };
  }

  /** Bytes given so far (without the held line given first). */
  get inputBytes(): number {
    return this.#inputBytes;
  }

  /** Bytes of the original input the output so far stands for: its bytes plus the zeros removed from it. */
  get originalBytes(): number {
    return this.#outputBytes + this.#compactions.reduce((sum, compaction) => sum + compaction.skipped, 0);
  }

  /**
   * `position` (a parse error's line, column and offset in the stream's output) in the original bytes: the
   * zeros removed before it are added back. The offset is relative to the start of the held line given first.
   */
  originalPosition(position: LinePosition): LinePosition {
    let { column, offset } = position;
    const lineStart = position.offset - (position.column - 1);
    for (const compaction of this.#compactions) {
      if (position.offset > compaction.offset) offset += compaction.skipped;
      if (lineStart === compaction.lineStart && position.column > compaction.column) column += compaction.skipped;
    }
    return { line: position.line, column, offset };
  }

  #take(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
    this.#inputBytes += chunk.byteLength;
    const last = chunk.lastIndexOf(LF);
    if (last === -1) {
      // A line too long to be valid is passed on as it comes; any other is kept, as a copy (the chunk's buffer may be
      // reused once the chunk has been handed on).
      if (this.#passing) this.#emit(controller, chunk);
      else this.#hold(chunk.slice(), controller);
      return;
    }
    // The rest is copied before the chunk is passed on: whoever receives it may reuse its buffer at once.
    const rest = last + 1 < chunk.byteLength ? chunk.slice(last + 1) : undefined;
    this.#release(controller);
    this.#emit(controller, chunk.subarray(0, last + 1));
    this.#passing = false;
    if (rest !== undefined) this.#hold(rest, controller);
  }

  /** Keeps `bytes`, a copy of the current line's start (or more of it) that no one else holds. */
  #hold(bytes: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
    this.#heldChunks.push(bytes);
    this.#heldLength += bytes.byteLength;
    if (this.#heldLength < this.#compactAt) return;
    this.#compact();
    if (this.#heldLength > LONGEST_HELD_LINE) {
      // Invalid whatever follows: the parser finds the error where it lies.
      this.#release(controller);
      this.#passing = true;
    }
  }

  /** Passes on the held bytes (the start of the current line), recording where its zeros were shortened. */
  #release(controller: TransformStreamDefaultController<Uint8Array>): void {
    if (this.#heldLength === 0) return;
    const bytes = concat(this.#heldChunks, this.#heldLength);
    if (this.#heldSkipped > 0) {
      const sign = bytes[0] === MINUS ? 1 : 0;
      this.#compactions.push({
        lineStart: this.#outputBytes,
        column: sign + 1,
        offset: this.#outputBytes + sign,
        skipped: this.#heldSkipped,
      });
    }
    this.#heldChunks = [];
    this.#heldLength = 0;
    this.#heldSkipped = 0;
    this.#emit(controller, bytes);
  }

  #emit(controller: TransformStreamDefaultController<Uint8Array>, bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.#outputBytes += bytes.byteLength;
    controller.enqueue(bytes);
  }

  /** Shortens the held line's run of leading zeros to one zero. */
  #compact(): void {
    if (this.#heldLength === 0) return;
    const bytes = concat(this.#heldChunks, this.#heldLength);
    const sign = bytes[0] === MINUS ? 1 : 0;
    let end = sign;
    while (end < bytes.byteLength && bytes[end] === ZERO) end++;
    const zeros = end - sign;
    if (zeros < 2) {
      this.#heldChunks = [bytes];
      return;
    }
    const kept = new Uint8Array(bytes.byteLength - (zeros - 1));
    kept.set(bytes.subarray(0, sign + 1));
    kept.set(bytes.subarray(end), sign + 1);
    this.#heldChunks = [kept];
    this.#heldLength = kept.byteLength;
    this.#heldSkipped += zeros - 1;
  }
}

/** The chunks as one array of `length` bytes (the chunk itself when there is one). */
function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.byteLength === length) return chunks[0]!;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
