import {
  type CanonicalRun,
  canonicalLineValue,
  countLineBreaks,
  type LineMarks,
  lineEndAfter,
  lineStartBefore,
  NO_MARK,
  scanCanonicalLines,
} from "../numbers/canonical-lines.ts";
import { type EncodedLines, encodedLineLength, encodeLinesInto } from "../numbers/number-encoder.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { ChunkBuffers } from "./chunk-buffers.ts";
import { LINE_INDEX_ENTRY_BYTES, LINE_INDEX_EVERY, LineIndexWriter } from "./line-index.ts";
import { lineIndexKey, partKey } from "./object-keys.ts";
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
  /**
   * Where the part's entries start in its attempt's line index (`lineIndexKeyOfPart`), in bytes; absent on parts
   * stored before line indexes existed (manifest version 1).
   */
  lineIndex?: number;
  /**
   * The part-relative line of its first index entry, from 1 to `lineIndexEvery`: entries mark every
   * `lineIndexEvery`-th line of the upload attempt, so they fall where its count of lines says (see `line-index.ts`).
   * A part of at most `lineIndexEvery` lines has no entries: then its line count. Absent with {@linkcode lineIndex}.
   */
  lineIndexFirst?: number;
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
  /** Lines between two entries of the line index (default `LINE_INDEX_EVERY`; see `line-index.ts`). */
  lineIndexEvery?: number;
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
  readonly #index = new LineIndexWriter();
  /** What the encoder reports back: reused by every write of numbers. */
  readonly #encoded: EncodedLines = { read: 0, written: 0, last: Number.NEGATIVE_INFINITY, sorted: true };
  readonly #every: number;
  #part: PartUpload | undefined;
  #partIndexStart = 0;
  #partIndexFirst = 0;
  #partNumbers = 0;
  #partFirst = 0;
  #partLast = 0;
  #numbers = 0;
  #bytes = 0;
  readonly #carry = new Uint8Array(24);
  readonly #scan: CanonicalRun = { end: 0, lines: 0, sorted: false };
  readonly #marks: LineMarks = { every: NO_MARK, next: NO_MARK, offsets: new Int32Array(16), count: 0 };
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
    this.#every = options.lineIndexEvery ?? LINE_INDEX_EVERY;
    if (!Number.isSafeInteger(this.#every) || this.#every < 1) {
      throw new RangeError(`Cannot use lineIndexEvery ${this.#every}: expected a whole number from 1`);
    }
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

  /** Lines between two entries of the line index. */
  get lineIndexEvery(): number {
    return this.#every;
  }

  /** Whether every number written so far is at least the one before it (true for none). */
  get sorted(): boolean {
    return this.#index.sorted;
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
   * Appends `lines`: `count` complete lines in canonical form (as `scanCanonicalLines` finds them, each ended by
   * `\n`), copied into the parts as they are, in as few copies as the parts' buffers allow. The same as writing their
   * numbers with {@linkcode write}, without converting them: the first and last number of a part and the numbers of
   * its indexed lines are read from its lines. A caller that scanned the lines already passes what it found, and the
   * splitter does not read them again: `sorted`, whether they are non-decreasing among themselves
   * (`scanCanonicalLines` with `order`), and `marks`, where the lines it indexes start in `lines` (those whose index
   * among all numbers written is a multiple of {@linkcode lineIndexEvery}; see `LineMarks`). Without both, it scans
   * them itself.
   *
   * @throws {RangeError} when the splitter scans `lines` and they are not `count` complete lines in canonical form,
   *   or when `marks` do not name as many lines as `count` lines from here hold indexed ones.
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
  writeLines(lines: Uint8Array, count: number, sorted?: boolean, marks?: ArrayLike<number>): Promise<void> | undefined {
    this.#assertWritable("write");
    if (this.#numbers + count > this.#maxNumbers) throw new NumberLimitError(this.#maxNumbers);
    let order = sorted;
    let marked = marks;
    if (order === undefined || marked === undefined) {
      const scan = this.#scan;
      const own = this.#marks;
      own.every = this.#every;
      own.next = this.#linesToEntry % this.#every;
      own.count = 0;
      scanCanonicalLines(lines, 0, scan, this.sorted, own);
      if (scan.end !== lines.length || scan.lines !== count) {
        throw new RangeError(
          `Cannot write lines: expected ${count} complete lines in canonical form, found ${scan.lines} ` +
            `in the first ${scan.end} of ${lines.length} bytes`,
        );
      }
      order = scan.sorted;
      marked = own.offsets.subarray(0, own.count);
    } else {
      const every = this.#every;
      const indexed = Math.ceil((this.#numbers + count) / every) - Math.ceil(this.#numbers / every);
      if (marked.length !== indexed) {
        throw new RangeError(
          `Cannot write lines: ${count} lines after line ${this.#numbers} hold ${indexed} indexed lines, ` +
            `but ${marked.length} are marked`,
        );
      }
    }
    if (count > 0) this.#index.follow(lines, order);
    return this.#writeLinesFrom(lines, marked, 0, count, 0);
  }

  /**
   * Stores the last part and the line index (when a part has more than `LINE_INDEX_EVERY` lines), waits for every
   * upload and returns the parts in order.
   */
  async close(): Promise<PartRecord[]> {
    this.#assertWritable("close");
    this.#state = "closed";
    if (this.#part) await this.#finishPart();
    const parts = await Promise.all(this.#parts);
    if (this.#index.entries > 0) await this.#store.put(lineIndexKey(this.#name, this.#uploadId), this.#index.bytes());
    return parts;
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
      // Pieces that end before each indexed line (every lineIndexEvery-th of the attempt), into the same window.
      // The encoder follows their order as it goes (see #encode).
      let written = 0;
      for (;;) {
        const stop = Math.min(end, i + this.#linesToEntry);
        const piece = this.#encode(numbers, i, stop, window, written);
        if (piece.read === 0) break;
        this.#count(numbers[i]!, numbers[i + piece.read - 1]!, piece.read, piece.written, part.bytes + written);
        written += piece.written;
        i += piece.read;
        if (i >= end || i < stop) break;
      }
      part.commit(written);
      if (i >= end) return undefined;
      const next = numbers[i]!;
      const lineLength = encodedLineLength(next);
      if (lineLength > room - written) {
        const wait = this.#finishPart();
        if (wait) return wait.then(() => this.#writeFrom(numbers, i));
        continue;
      }
      const { written: carried } = this.#encode(numbers, i, i + 1, this.#carry, 0);
      this.#carryStart = 0;
      this.#carryEnd = carried;
      this.#count(next, next, 1, carried);
      i += 1;
    }
  }

  /**
   * Encodes `numbers[start..end)` into `target` from `offset` on, as many as fit (see `encodeLinesInto`), and has the
   * line index follow their order from the same pass. The report is reused: read it before the next call.
   */
  #encode(numbers: ArrayLike<number>, start: number, end: number, target: Uint8Array, offset: number): EncodedLines {
    const encoded = this.#encoded;
    const index = this.#index;
    encoded.last = index.last;
    encoded.sorted = index.sorted;
    encodeLinesInto(numbers, start, end, target, offset, encoded);
    index.followed(encoded.last, encoded.sorted);
    return encoded;
  }

  /**
   * Writes the `count` lines of `lines[from..)`, whose indexed lines start at `marks[mark..)`: as much as the current
   * part's buffer takes in one copy, then the next part's, carrying a line across two chunks of a multipart part.
   */
  #writeLinesFrom(
    lines: Uint8Array,
    marks: ArrayLike<number>,
    from: number,
    count: number,
    mark: number,
  ): Promise<void> | undefined {
    const end = lines.length;
    let i = from;
    let left = count;
    let m = mark;
    for (;;) {
      const flushing = this.#flushCarry();
      if (flushing) return flushing.then(() => this.#writeLinesFrom(lines, marks, i, left, m));
      if (i >= end) return undefined;
      const part = this.#part ?? this.#openPart();
      const room = this.#maxPartBytes - part.bytes;
      let window = part.window();
      if (window.length > room) window = window.subarray(0, room);
      if (end - i <= window.length) {
        this.#countLines(lines, marks, m, i, end, left);
        window.set(i === 0 ? lines : lines.subarray(i));
        part.commit(end - i);
        return undefined;
      }
      // The lines that fit, then the line that does not: it goes to the next part, or straddles two chunks.
      const fits = lineStartBefore(lines, i, i + window.length);
      const spare = room - (fits - i);
      if (fits > i) {
        const piece = this.#linesBefore(lines, marks, m, i, fits);
        m = this.#countLines(lines, marks, m, i, fits, piece);
        window.set(lines.subarray(i, fits));
        part.commit(fits - i);
        left -= piece;
        i = fits;
      }
      const next = lineEndAfter(lines, i);
      if (next - i > spare) {
        const wait = this.#finishPart();
        if (wait) return wait.then(() => this.#writeLinesFrom(lines, marks, i, left, m));
        continue;
      }
      this.#carry.set(lines.subarray(i, next));
      this.#carryStart = 0;
      this.#carryEnd = next - i;
      m = this.#countLines(lines, marks, m, i, next, 1);
      left -= 1;
      i = next;
    }
  }

  /**
   * How many lines `lines[start..end)` holds, `start` being the next line to write and `marks[mark]` the next indexed
   * line: counted from the last indexed line before `end`, whose place in the count is known.
   */
  #linesBefore(lines: Uint8Array, marks: ArrayLike<number>, mark: number, start: number, end: number): number {
    let m = mark;
    while (m < marks.length && marks[m]! < end) m++;
    if (m === mark) return countLineBreaks(lines, start, end);
    const every = this.#every;
    const toFirst = (every - (this.#numbers % every)) % every;
    return toFirst + (m - 1 - mark) * every + countLineBreaks(lines, marks[m - 1]!, end);
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

  /**
   * Counts the `count` canonical lines `lines[start..end)` into the current part, with an entry of the line index for
   * each indexed line among them from `marks[mark]` on, and returns the index of the first mark after them.
   */
  #countLines(
    lines: Uint8Array,
    marks: ArrayLike<number>,
    mark: number,
    start: number,
    end: number,
    count: number,
  ): number {
    const offset = this.#part!.bytes - start;
    const marked = mark < marks.length && marks[mark] === start;
    const first = this.#partNumbers === 0 || marked ? lineValue(lines, start) : 0;
    const last = canonicalLineValue(lines, lineStartBefore(lines, start, end - 1), end - 1);
    // The first line's entry, or its place as the part's first line, is #count's.
    this.#count(first, last, count, end - start);
    let m = marked ? mark + 1 : mark;
    for (; m < marks.length && marks[m]! < end; m++) this.#index.add(offset + marks[m]!, lineValue(lines, marks[m]!));
    return m;
  }

  /**
   * Counts a piece of `count` lines, `bytes` bytes, whose numbers go from `first` to `last`, into the current part
   * at `offset` (by default where its committed bytes end). Only its first line's entry, when that line is indexed,
   * is added here: a piece of numbers never holds another indexed line, and `#countLines` adds the others of a piece
   * of lines.
   */
  #count(first: number, last: number, count: number, bytes: number, offset = this.#part!.bytes): void {
    if (this.#partNumbers === 0) this.#partFirst = first;
    else if (this.#numbers % this.#every === 0) this.#index.add(offset, first);
    this.#partLast = last;
    this.#partNumbers += count;
    this.#numbers += count;
    this.#bytes += bytes;
  }

  /**
   * The most lines a piece starting at the next line may hold: up to, not including, the first indexed line after
   * it (every `lineIndexEvery`-th line of the attempt is indexed, and a piece holds one only as its first line).
   */
  get #linesToEntry(): number {
    return this.#every - (this.#numbers % this.#every);
  }

  #openPart(): PartUpload {
    if (this.#uploads.length >= MAX_PARTS) throw new PartLimitError(this.#maxPartBytes);
    const key = partKey(this.#name, this.#uploadId, this.#parts.length);
    const part = new PartUpload(this.#store, this.#slots, key, this.#buffers);
    this.#part = part;
    this.#uploads.push(part);
    this.#partNumbers = 0;
    this.#partIndexStart = this.#index.entries;
    this.#partIndexFirst = this.#linesToEntry;
    return part;
  }

  #finishPart(): Promise<void> | undefined {
    const part = this.#part!;
    this.#part = undefined;
    // A part of at most lineIndexEvery lines is read whole anyway: its entries are dropped.
    if (this.#partNumbers <= this.#every) {
      this.#index.truncate(this.#partIndexStart);
      this.#partIndexFirst = this.#partNumbers;
    }
    const record = {
      index: this.#parts.length,
      key: part.key,
      bytes: part.bytes,
      numbers: this.#partNumbers,
      first: this.#partFirst,
      last: this.#partLast,
      lineIndex: this.#partIndexStart * LINE_INDEX_ENTRY_BYTES,
      lineIndexFirst: this.#partIndexFirst,
    };
    const wait = part.finish();
    const stored = wait ? wait.then(() => part.result!) : part.result!;
    const recorded = stored.then((object) => ({ ...record, etag: object.etag }));
    recorded.catch(() => undefined);
    this.#parts.push(recorded);
    return wait;
  }
}

/** The number of the canonical line that starts at `start` in `lines`. */
function lineValue(lines: Uint8Array, start: number): number {
  return canonicalLineValue(lines, start, lineEndAfter(lines, start) - 1);
}
