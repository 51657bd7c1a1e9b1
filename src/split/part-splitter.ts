import { canonicalLineValue, countLineBreaks, lineEndAfter, lineStartBefore } from "../numbers/canonical-lines.ts";
import { encodedLineLength, encodeNumbersInto } from "../numbers/number-encoder.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { ChunkBuffers } from "./chunk-buffers.ts";
import { partKey } from "./object-keys.ts";
import { checkMaxPartBytes } from "./part-size.ts";
import { PartUpload } from "./part-upload.ts";
import { UploadSlots } from "./upload-slots.ts";

/** The smallest chunk R2 and S3 accept for a multipart write (all chunks but the last): 5 MiB. */
export const MIN_CHUNK_BYTES = 5 * 1024 * 1024;
/** Default chunk size: parts up to 10 MiB are single `put`s, larger ones multipart writes of 10 MiB chunks. */
export const DEFAULT_CHUNK_BYTES = 10 * 1024 * 1024;
/** Default number of uploads in flight at once. */
export const DEFAULT_MAX_IN_FLIGHT = 2;

/** What the manifest records about one stored part. */
export interface PartRecord {
  /** 0-based position of the part. */
  index: number;
  /** The part's object key. */
  key: string;
  /** Size in bytes (every line ends with `\n`). */
  bytes: number;
  /** How many numbers (lines) the part holds. */
  numbers: number;
  /** The part's first number. */
  first: number;
  /** The part's last number. */
  last: number;
  /** The store's etag of the part object. */
  etag: string;
}

/** Options of a {@linkcode PartSplitter}. */
export interface PartSplitterOptions {
  /** Where parts are written. */
  store: ObjectStore;
  /** The file name the parts belong to. */
  name: string;
  /** The upload attempt the parts belong to (see `newUploadId`). */
  uploadId: string;
  /** Size limit of one part in bytes; lines are never split across parts. */
  maxPartBytes: number;
  /** Chunk size of multipart writes, at least 5 MiB (default {@linkcode DEFAULT_CHUNK_BYTES}). */
  chunkBytes?: number;
  /** Uploads in flight at once (default {@linkcode DEFAULT_MAX_IN_FLIGHT}). */
  maxInFlight?: number;
  /** Most numbers accepted; a write past it throws {@linkcode NumberLimitError} (default: no limit). */
  maxNumbers?: number;
}

/**
 * Most parts one file may have: its manifest (about 250 bytes a part) stays near 1 MB, well inside the 2 MB a
 * Durable Object's stored row may hold. With the default 10 MiB parts that is a file of 40 GB.
 */
export const MAX_PARTS = 4000;

/** A split would need more than {@linkcode MAX_PARTS} parts. */
export class PartLimitError extends RangeError {
  override name = "PartLimitError";

  /** Builds the error for a file whose parts are at most `maxPartBytes`. */
  constructor(maxPartBytes: number) {
    super(
      `Cannot store more than ${MAX_PARTS} parts in one file: with parts of at most ${maxPartBytes} bytes ` +
        "the file needs more; use larger parts (maxPartBytes)",
    );
  }
}

/** A split was given more numbers than its `maxNumbers` allows. */
export class NumberLimitError extends RangeError {
  override name = "NumberLimitError";
  /** The limit that was passed. */
  readonly limit: number;

  /** Builds the error for `limit`. */
  constructor(limit: number) {
    super(`Cannot accept more than ${limit} numbers in one file`);
    this.limit = limit;
  }
}

/**
 * Writes numbers as newline-terminated decimal lines into parts of at most `maxPartBytes` bytes each,
 * rotating to a new part when the next line would not fit, so no line is split across parts. Numbers are
 * encoded straight into the part's upload buffer. Uploads run in the background, at most `maxInFlight` at
 * a time: {@linkcode write} returns a promise only when the caller has to wait for one to finish.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const splitter = new PartSplitter({ store, name: "primes", uploadId: newUploadId(), maxPartBytes: 1 << 20 });
 * await splitter.write(new Float64Array([2, 3, 5, 7]));
 * const [part] = await splitter.close();
 * [part!.index, part!.bytes, part!.numbers, part!.first, part!.last]; // [0, 8, 4, 2, 7]
 * ```
 */
export class PartSplitter {
  readonly #store: ObjectStore;
  readonly #name: string;
  readonly #uploadId: string;
  readonly #maxPartBytes: number;
  readonly #buffers: ChunkBuffers;
  readonly #slots: UploadSlots;
  readonly #maxNumbers: number;
  readonly #parts: Promise<PartRecord>[] = [];
  readonly #uploads: PartUpload[] = [];
  #part: PartUpload | undefined;
  #partNumbers = 0;
  #partFirst = 0;
  #partLast = 0;
  #numbers = 0;
  #bytes = 0;
  readonly #carry = new Uint8Array(24);
  #carryStart = 0;
  #carryEnd = 0;
  #state: "writable" | "closed" | "aborted" = "writable";

  /** Prepares a splitter; nothing is written until the first number arrives. */
  constructor(options: PartSplitterOptions) {
    this.#store = options.store;
    this.#name = options.name;
    this.#uploadId = options.uploadId;
    this.#maxPartBytes = checkMaxPartBytes(options.maxPartBytes);
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    if (!Number.isSafeInteger(chunkBytes) || chunkBytes < MIN_CHUNK_BYTES) {
      throw new RangeError(
        `Cannot use chunkBytes ${chunkBytes}: expected a whole number of at least ${MIN_CHUNK_BYTES}`,
      );
    }
    this.#maxNumbers = options.maxNumbers ?? Number.POSITIVE_INFINITY;
    const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.#slots = new UploadSlots(maxInFlight);
    this.#buffers = new ChunkBuffers(Math.min(chunkBytes, this.#maxPartBytes));
  }

  /** Numbers written so far. */
  get numbers(): number {
    return this.#numbers;
  }

  /** Bytes written so far (all parts). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Appends `numbers` (each a safe integer). Returns `undefined` when everything was taken at once, or a
   * promise to wait for before the next write when an upload slot had to be waited for.
   *
   * @throws {RangeError} when a value is not a safe integer.
   * @throws {NumberLimitError} when the write would pass `maxNumbers`.
   * @throws the first upload failure, once one has happened.
   */
  write(numbers: ArrayLike<number>): Promise<void> | undefined {
    this.#assertWritable("write");
    if (this.#numbers + numbers.length > this.#maxNumbers) throw new NumberLimitError(this.#maxNumbers);
    return this.#writeFrom(numbers, 0);
  }

  /**
   * Appends `lines`: `count` complete lines already in canonical form (as `scanCanonicalLines` finds them, each
   * ended by `\n`), copied into the parts as they are. The same as writing their numbers with {@linkcode write},
   * without converting them; the first and last number of a part are read from its lines.
   *
   * @throws {NumberLimitError} when the write would pass `maxNumbers`.
   * @throws the first upload failure, once one has happened.
   *
   * @example
   * ```ts
   * const store = new MemoryStore();
   * const splitter = new PartSplitter({ store, name: "primes", uploadId: newUploadId(), maxPartBytes: 1 << 20 });
   * await splitter.writeLines(new TextEncoder().encode("2\n3\n5\n7\n"), 4);
   * const [part] = await splitter.close();
   * [part!.bytes, part!.numbers, part!.first, part!.last]; // [8, 4, 2, 7]
   * ```
   */
  writeLines(lines: Uint8Array, count: number): Promise<void> | undefined {
    this.#assertWritable("write");
    if (this.#numbers + count > this.#maxNumbers) throw new NumberLimitError(this.#maxNumbers);
    return this.#writeLinesFrom(lines, 0, count);
  }

  /** Stores the last part, waits for every upload and returns the parts in order. */
  async close(): Promise<PartRecord[]> {
    this.#assertWritable("close");
    this.#state = "closed";
    if (this.#part) await this.#finishPart();
    return Promise.all(this.#parts);
  }

  /** Stops writing, aborts unfinished multipart writes and waits until no upload is in flight. */
  async abort(): Promise<void> {
    this.#state = "aborted";
    await this.#slots.settled();
    await Promise.allSettled(this.#uploads.map((upload) => upload.abort()));
  }

  #assertWritable(action: string): void {
    if (this.#state !== "writable") throw new Error(`Cannot ${action}: the splitter is ${this.#state}`);
    const failure = this.#slots.failure;
    if (failure) throw failure.error;
  }

  #writeFrom(numbers: ArrayLike<number>, from: number): Promise<void> | undefined {
    const end = numbers.length;
    let i = from;
    for (;;) {
      const flushing = this.#flushCarry();
      if (flushing) return flushing.then(() => this.#writeFrom(numbers, i));
      if (i >= end) return undefined;
      const part = this.#part ?? this.#openPart();
      const room = this.#maxPartBytes - part.bytes;
      let window = part.window();
      if (window.length > room) window = window.subarray(0, room);
      const { read, written } = encodeNumbersInto(numbers, i, end, window, 0);
      if (read > 0) {
        this.#count(numbers[i]!, numbers[i + read - 1]!, read, written);
        part.commit(written);
        i += read;
        if (i >= end) return undefined;
      }
      const next = numbers[i]!;
      const lineLength = encodedLineLength(next);
      if (lineLength > room - written) {
        const wait = this.#finishPart();
        if (wait) return wait.then(() => this.#writeFrom(numbers, i));
        continue;
      }
      const { written: carried } = encodeNumbersInto(numbers, i, i + 1, this.#carry, 0);
      this.#carryStart = 0;
      this.#carryEnd = carried;
      this.#count(next, next, 1, carried);
      i += 1;
    }
  }

  #writeLinesFrom(lines: Uint8Array, from: number, count: number): Promise<void> | undefined {
    const end = lines.length;
    let i = from;
    let left = count;
    for (;;) {
      const flushing = this.#flushCarry();
      if (flushing) return flushing.then(() => this.#writeLinesFrom(lines, i, left));
      if (i >= end) return undefined;
      const part = this.#part ?? this.#openPart();
      const room = this.#maxPartBytes - part.bytes;
      let window = part.window();
      if (window.length > room) window = window.subarray(0, room);
      if (end - i <= window.length) {
        this.#countLines(lines, i, end, left);
        window.set(i === 0 ? lines : lines.subarray(i));
        part.commit(end - i);
        return undefined;
      }
      // The lines that fit, then the line that does not: it goes to the next part, or straddles two chunks.
      const fits = lineStartBefore(lines, i, i + window.length);
      const spare = room - (fits - i);
      if (fits > i) {
        const piece = countLineBreaks(lines, i, fits);
        this.#countLines(lines, i, fits, piece);
        window.set(lines.subarray(i, fits));
        part.commit(fits - i);
        left -= piece;
        i = fits;
      }
      const next = lineEndAfter(lines, i);
      if (next - i > spare) {
        const wait = this.#finishPart();
        if (wait) return wait.then(() => this.#writeLinesFrom(lines, i, left));
        continue;
      }
      this.#carry.set(lines.subarray(i, next));
      this.#carryStart = 0;
      this.#carryEnd = next - i;
      this.#countLines(lines, i, next, 1);
      left -= 1;
      i = next;
    }
  }

  /**
   * Moves the carried line (one that straddles two chunks of a multipart part) into the part, shipping the full
   * chunk in between. Returns a promise only when it has to wait for an upload slot; call again once it settles.
   */
  #flushCarry(): Promise<void> | undefined {
    while (this.#carryStart < this.#carryEnd) {
      const part = this.#part!;
      const window = part.window();
      if (window.length === 0) {
        const wait = part.flushChunk();
        if (wait) return wait;
        continue;
      }
      const piece = this.#carry.subarray(this.#carryStart, Math.min(this.#carryEnd, this.#carryStart + window.length));
      window.set(piece);
      part.commit(piece.length);
      this.#carryStart += piece.length;
    }
    return undefined;
  }

  /** Counts the `count` canonical lines `lines[start..end)` into the current part. */
  #countLines(lines: Uint8Array, start: number, end: number, count: number): void {
    const first = this.#partNumbers === 0 ? canonicalLineValue(lines, start, lineEndAfter(lines, start) - 1) : 0;
    const last = canonicalLineValue(lines, lineStartBefore(lines, start, end - 1), end - 1);
    this.#count(first, last, count, end - start);
  }

  #count(first: number, last: number, count: number, bytes: number): void {
    if (this.#partNumbers === 0) this.#partFirst = first;
    this.#partLast = last;
    this.#partNumbers += count;
    this.#numbers += count;
    this.#bytes += bytes;
  }

  #openPart(): PartUpload {
    if (this.#uploads.length >= MAX_PARTS) throw new PartLimitError(this.#maxPartBytes);
    const key = partKey(this.#name, this.#uploadId, this.#parts.length);
    const part = new PartUpload(this.#store, this.#slots, key, this.#buffers);
    this.#part = part;
    this.#uploads.push(part);
    this.#partNumbers = 0;
    return part;
  }

  #finishPart(): Promise<void> | undefined {
    const part = this.#part!;
    this.#part = undefined;
    const record = {
      index: this.#parts.length,
      key: part.key,
      bytes: part.bytes,
      numbers: this.#partNumbers,
      first: this.#partFirst,
      last: this.#partLast,
    };
    const wait = part.finish();
    const stored = wait ? wait.then(() => part.result!) : part.result!;
    const recorded = stored.then((object) => ({ ...record, etag: object.etag }));
    recorded.catch(() => undefined);
    this.#parts.push(recorded);
    return wait;
  }
}
