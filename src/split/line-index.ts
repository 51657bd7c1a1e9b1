/**
 * The sparse line index an upload records while it writes its parts, and whether its lines are non-decreasing.
 *
 * Every {@linkcode LINE_INDEX_EVERY}-th line of an upload attempt (lines K, 2K, … of all it wrote; but the first line
 * of a part, which starts at offset 0) gets an entry of {@linkcode LINE_INDEX_ENTRY_BYTES} bytes: the line's byte
 * offset in its part (uint32, little-endian) and its number (float64, little-endian). The entries of all parts of one
 * attempt are stored, part after part, in one object next to the parts (`lineIndexKey`); each part record names
 * where its entries start (`PartRecord.lineIndex`) and which of its lines the first marks (`lineIndexFirst`, 1 to
 * K), so a part of `n` lines has the entries of lines `first`, `first + K`, … below `n`. A part of at most K lines
 * has none (its `lineIndexFirst` is its line count): it is read whole, and an upload in parts of at most 2K bytes
 * (each line takes 2 bytes at least) writes no index. An entry costs 12 bytes per
 * K lines: 0.23 % of a part of the first primes (about 10.4 bytes a line), 1.2 % in the worst case of one-digit
 * lines, under 1 % once lines average 2.4 bytes or more.
 *
 * @module
 */
import { canonicalLineValue, lineEndAfter, lineStartBefore } from "../numbers/canonical-lines.ts";

/** Lines between two entries of the line index (K). */
export const LINE_INDEX_EVERY = 512;

/** Bytes of one entry of the line index: the line's offset (uint32) and its number (float64). */
export const LINE_INDEX_ENTRY_BYTES = 12;

/**
 * How many index entries a part of `numbers` lines has whose first entry marks its line `first`, with an entry every
 * `every` lines.
 *
 * @example
 * ```ts
 * [lineIndexEntries(512, 512, 512), lineIndexEntries(513, 512, 512), lineIndexEntries(700, 512, 100)]; // [0, 1, 2]
 * ```
 */
export function lineIndexEntries(numbers: number, every: number, first: number): number {
  return first < numbers ? Math.floor((numbers - 1 - first) / every) + 1 : 0;
}

/**
 * Collects the line index of one split and follows whether its lines are non-decreasing, as a `PartSplitter`
 * writes them.
 *
 * @example
 * ```ts
 * const index = new LineIndexWriter();
 * index.add(4096, 7919);
 * index.followed(5, true);
 * index.followed(4, false);
 * [index.entries, index.sorted]; // [1, false]
 * index.bytes().length; // 12
 * ```
 */
export class LineIndexWriter {
  #view = new DataView(new ArrayBuffer(64 * LINE_INDEX_ENTRY_BYTES));
  #entries = 0;
  #sorted = true;
  #last = Number.NEGATIVE_INFINITY;

  /** Entries added so far. */
  get entries(): number {
    return this.#entries;
  }

  /** Whether every line seen so far is at least the one before it. */
  get sorted(): boolean {
    return this.#sorted;
  }

  /** Adds the entry of a line at byte `offset` of its part whose number is `value`. */
  add(offset: number, value: number): void {
    let view = this.#view;
    const at = this.#entries * LINE_INDEX_ENTRY_BYTES;
    if (at === view.byteLength) {
      const grown = new Uint8Array(2 * at);
      grown.set(new Uint8Array(view.buffer));
      view = this.#view = new DataView(grown.buffer);
    }
    view.setUint32(at, offset, true);
    view.setFloat64(at + 4, value, true);
    this.#entries++;
  }

  /** Drops the entries added after the first `entries`. */
  truncate(entries: number): void {
    this.#entries = Math.min(this.#entries, entries);
  }

  /** The number of the last line followed while the lines were sorted (−∞ before the first). */
  get last(): number {
    return this.#last;
  }

  /**
   * Takes the order of the next lines written from whoever followed them (an encoder, see `encodeLinesInto`): the
   * last one's number, and whether they were sorted, each at least the one before it from {@linkcode last} on.
   */
  followed(last: number, sorted: boolean): void {
    if (!this.#sorted) return;
    this.#last = last;
    this.#sorted = sorted;
  }

  /**
   * Follows the order of the canonical lines `bytes`, the next lines written, whose own order is known: `sorted`
   * says whether they are non-decreasing among themselves.
   */
  follow(bytes: Uint8Array, sorted: boolean): void {
    if (!this.#sorted) return;
    const first = canonicalLineValue(bytes, 0, lineEndAfter(bytes, 0) - 1);
    if (!sorted || first < this.#last) {
      this.#sorted = false;
      return;
    }
    this.#last = canonicalLineValue(bytes, lineStartBefore(bytes, 0, bytes.length - 1), bytes.length - 1);
  }

  /** The entries as stored: {@linkcode LINE_INDEX_ENTRY_BYTES} bytes each, in the order they were added. */
  bytes(): Uint8Array {
    return new Uint8Array(this.#view.buffer, 0, this.#entries * LINE_INDEX_ENTRY_BYTES);
  }
}
