/**
 * Random access by line and by value: reading lines I … I + N − 1 of a stored file, and finding the first line whose
 * number is at least V in a non-decreasing file, through the parts' line index (see `line-index.ts`) so that a read
 * fetches a few index entries and one small byte range of a part instead of the file.
 *
 * @module
 */
import { canonicalLineValue } from "../numbers/canonical-lines.ts";
import { LINE_INDEX_ENTRY_BYTES, lineIndexEntries } from "../split/line-index.ts";
import { lineIndexKeyOfPart } from "../split/object-keys.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import type { ObjectRange, ObjectStore } from "../store/object-store.ts";
import type { Manifest } from "./manifest.ts";

/** Most lines one {@linkcode readLines} returns. */
export const MAX_LINES_COUNT = 10_000;

const LF = 0x0a;

/** The file was stored before line indexes existed (manifest version 1): it has no index to read lines by. */
export class LineIndexMissingError extends Error {
  override name = "LineIndexMissingError";

  /** Builds the error for the file `name`. */
  constructor(name: string, what: string) {
    super(
      `Cannot ${what} of "${name}": it was stored, wholly or in part, before line indexes existed ` +
        "(manifest version 1); upload it again to read it by line and by value",
    );
  }
}

/** A search by value in a file whose numbers are not non-decreasing. */
export class NotSortedError extends Error {
  override name = "NotSortedError";

  /** Builds the error for the file `name`. */
  constructor(name: string) {
    super(`Cannot search "${name}" by value: its numbers are not in non-decreasing order`);
  }
}

/** Lines of a file, as {@linkcode readLines} answers them. */
export interface LinesRead {
  /** The first line's index (0-based), as asked. */
  from: number;
  /** How many lines {@linkcode bytes} holds: the count asked for, fewer at the end of the file, 0 past it. */
  count: number;
  /** How many lines the file has. */
  total: number;
  /** The lines as stored: canonical decimal integers, each ended by `\n`. */
  bytes: Uint8Array;
}

/** What {@linkcode searchValue} found. */
export interface SearchResult {
  /** The index of the first line whose number is at least the value; the line count when there is none. */
  index: number;
  /** That line's number, or `null` when every number is less than the value. */
  value: number | null;
  /** Whether that number equals the value. */
  found: boolean;
}

/** The lines of one part a read takes: part-relative lines `first` … `last`. */
export interface LinePiece {
  /** The part. */
  part: PartRecord;
  /** Its first line taken, 0-based within the part. */
  first: number;
  /** Its last line taken. */
  last: number;
}

/**
 * The pieces of parts that lines `from` … `from + count − 1` of `manifest`'s file lie in (none when `from` is past
 * the last line; the end is clamped to it).
 *
 * @throws {RangeError} when `from` is not a whole number, or `count` not one from 1 to {@linkcode MAX_LINES_COUNT}.
 * @throws {LineIndexMissingError} for a file stored before line indexes existed.
 * @example
 * ```ts
 * declare const manifest: Manifest;
 * const pieces = linePieces(manifest, 1_000_000, 10);
 * pieces.length; // 1, or 2 when the lines cross from one part into the next
 * ```
 */
export function linePieces(manifest: Manifest, from: number, count: number): LinePiece[] {
  if (!Number.isSafeInteger(from) || from < 0) {
    throw new RangeError(`Cannot read lines from ${from}: expected a whole number from 0`);
  }
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_LINES_COUNT) {
    throw new RangeError(`Cannot read ${count} lines: expected a whole number from 1 to ${MAX_LINES_COUNT}`);
  }
  if (manifest.lineIndexEvery === null) throw new LineIndexMissingError(manifest.name, "read lines");
  const pieces: LinePiece[] = [];
  const end = Math.min(manifest.totals.numbers, from + count);
  let start = 0;
  for (const part of manifest.parts) {
    const next = start + part.numbers;
    if (next > from && start < end) {
      pieces.push({ part, first: Math.max(from, start) - start, last: Math.min(end, next) - 1 - start });
    }
    if (next >= end) break;
    start = next;
  }
  return pieces;
}

/**
 * The store calls {@linkcode readLines} makes for `pieces`: one byte range of each part, and one read of the line
 * index for each piece that starts or ends inside its part past its first index entry.
 */
export function linePiecesCalls(manifest: Manifest, pieces: readonly LinePiece[]): number {
  const every = manifest.lineIndexEvery ?? 1;
  return pieces.reduce((sum, piece) => sum + 1 + (entrySpan(piece, every) === null ? 0 : 1), 0);
}

/** Where the line index entries of one part fall: entry k marks the part's line `first + k · every`. */
interface PartIndexLayout {
  /** The line the part's first entry marks. */
  first: number;
  /** Lines between two entries. */
  every: number;
  /** How many entries the part has. */
  entries: number;
}

/** A part stored before line indexes existed (a session's segment) has no entries: it is read from its start. */
function layoutOf(part: PartRecord, every: number): PartIndexLayout {
  const first = part.lineIndex === undefined ? part.numbers : (part.lineIndexFirst ?? every);
  return { first, every, entries: lineIndexEntries(part.numbers, every, first) };
}

/** The last entry at or before the part's line `line`, or −1 when none is (the line comes before the first). */
function entryAtOrBefore(layout: PartIndexLayout, line: number): number {
  return line < layout.first ? -1 : Math.floor((line - layout.first) / layout.every);
}

/** The line entry `k` marks (the part's first line for k = −1). */
function lineOf(layout: PartIndexLayout, k: number): number {
  return k < 0 ? 0 : layout.first + k * layout.every;
}

/**
 * Reads lines `from` … `from + count − 1` of `manifest`'s file (0-based; fewer at its end, none past it). Each part
 * the lines lie in costs one read of a few entries of the line index and one byte range that starts and ends at most
 * `lineIndexEvery` lines around them.
 *
 * @throws {RangeError} when `from` or `count` is out of range (see {@linkcode linePieces}).
 * @throws {LineIndexMissingError} for a file stored before line indexes existed.
 * @throws {Error} when a part or its index no longer exists (the file was replaced or removed meanwhile).
 * @example
 * ```ts
 * declare const store: ObjectStore;
 * declare const manifest: Manifest;
 * const read = await readLines(store, manifest, 1_000_000, 3);
 * new TextDecoder().decode(read.bytes); // "15485867\n15485917\n15485927\n" for the first primes
 * ```
 */
export async function readLines(
  store: ObjectStore,
  manifest: Manifest,
  from: number,
  count: number,
): Promise<LinesRead> {
  const pieces = linePieces(manifest, from, count);
  const every = manifest.lineIndexEvery!;
  const chunks: Uint8Array[] = [];
  let taken = 0;
  for (const piece of pieces) {
    const { part, first, last } = piece;
    const span = entrySpan(piece, every);
    const entries = span === null ? null : await readEntries(store, manifest, part, span[0], span[1]);
    // The bytes from the indexed line at or before `first` (or the part's start) to the one after `last` (or the
    // part's end).
    const layout = layoutOf(part, every);
    const start = entryAtOrBefore(layout, first);
    const end = entryAtOrBefore(layout, last) + 1;
    const startOffset = start < 0 ? 0 : entries!.offset(start);
    const endOffset = end >= layout.entries ? part.bytes : entries!.offset(end);
    const bytes = await readPart(store, manifest, part, startOffset, endOffset);
    const skip = afterLines(bytes, 0, first - lineOf(layout, start));
    chunks.push(bytes.subarray(skip, afterLines(bytes, skip, last - first + 1)));
    taken += last - first + 1;
  }
  return { from, count: taken, total: manifest.totals.numbers, bytes: concat(chunks) };
}

/**
 * Finds the first line of `manifest`'s file whose number is at least `value`: a binary search over the parts' first
 * and last numbers, then over the entries of that part's line index, then a scan of the one byte range between two
 * entries. At most two store calls (none when the answer is a part's first line or past the end).
 *
 * @throws {RangeError} when `value` is not a safe integer.
 * @throws {LineIndexMissingError} for a file stored before line indexes existed (its order is not known).
 * @throws {NotSortedError} when the file's numbers are not non-decreasing.
 * @example
 * ```ts
 * declare const store: ObjectStore;
 * declare const manifest: Manifest;
 * await searchValue(store, manifest, 100); // { index: 25, value: 101, found: false } for the first primes
 * ```
 */
export async function searchValue(store: ObjectStore, manifest: Manifest, value: number): Promise<SearchResult> {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`Cannot search for ${value}: expected an integer of magnitude at most 2^53 − 1`);
  }
  const every = manifest.lineIndexEvery;
  if (every === null || manifest.sorted === null) throw new LineIndexMissingError(manifest.name, "search by value");
  if (!manifest.sorted) throw new NotSortedError(manifest.name);
  const { parts } = manifest;
  // The first part whose last number is at least the value.
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (parts[middle]!.last < value) low = middle + 1;
    else high = middle;
  }
  let before = 0;
  for (let i = 0; i < low; i++) before += parts[i]!.numbers;
  const part = parts[low];
  if (!part) return { index: before, value: null, found: false };
  if (part.first >= value) return { index: before, value: part.first, found: part.first === value };
  // The last indexed line below the value starts the range; the next indexed line (at least the value) ends it.
  const layout = layoutOf(part, every);
  const entryCount = layout.entries;
  const entries = entryCount === 0 ? null : await readEntries(store, manifest, part, 0, entryCount);
  low = 0;
  high = entryCount;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries!.value(middle) < value) low = middle + 1;
    else high = middle;
  }
  // Entries 0 … low − 1 are below the value: the range starts at the line of entry low − 1 (or the part's start).
  const startLine = lineOf(layout, low - 1);
  const startOffset = low === 0 ? 0 : entries!.offset(low - 1);
  const endOffset = low === entryCount ? part.bytes : entries!.offset(low);
  const bytes = await readPart(store, manifest, part, startOffset, endOffset);
  let line = startLine;
  for (let start = 0; start < bytes.length; line++) {
    const end = afterLines(bytes, start, 1);
    const number = canonicalLineValue(bytes, start, end - 1);
    if (number >= value) return { index: before + line, value: number, found: number === value };
    start = end;
  }
  // Every line of the range is below the value: the answer is the indexed line that ends it.
  const next = entries!.value(low);
  return { index: before + lineOf(layout, low), value: next, found: next === value };
}

/** The entries `[from, to)` a piece needs: the one at or before its first line and the one after its last. */
function entrySpan(piece: LinePiece, every: number): [number, number] | null {
  const layout = layoutOf(piece.part, every);
  const start = entryAtOrBefore(layout, piece.first);
  const end = entryAtOrBefore(layout, piece.last) + 1;
  const needsStart = start >= 0;
  const needsEnd = end < layout.entries;
  if (!needsStart && !needsEnd) return null;
  return [needsStart ? start : end, needsEnd ? end + 1 : start + 1];
}

/** Entries `from` … `to − 1` of a part's line index, read in one call. */
interface Entries {
  /** Entry `k`'s byte offset in the part. */
  offset(k: number): number;
  /** Entry `k`'s number. */
  value(k: number): number;
}

async function readEntries(
  store: ObjectStore,
  manifest: Manifest,
  part: PartRecord,
  from: number,
  to: number,
): Promise<Entries> {
  const key = lineIndexKeyOfPart(part.key);
  const range = {
    offset: part.lineIndex! + from * LINE_INDEX_ENTRY_BYTES,
    length: (to - from) * LINE_INDEX_ENTRY_BYTES,
  };
  const bytes = await readObject(store, key, range, `the line index of part ${part.index} of "${manifest.name}"`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = (k: number): number => {
    if (k < from || k >= to)
      throw new RangeError(`Cannot read index entry ${k}: entries ${from} to ${to - 1} were read`);
    return (k - from) * LINE_INDEX_ENTRY_BYTES;
  };
  return {
    offset: (k) => view.getUint32(at(k), true),
    value: (k) => view.getFloat64(at(k) + 4, true),
  };
}

/** Bytes `start` … `end − 1` of `part`. */
function readPart(store: ObjectStore, manifest: Manifest, part: PartRecord, start: number, end: number) {
  const range = start === 0 && end === part.bytes ? undefined : { offset: start, length: end - start };
  return readObject(store, part.key, range, `part ${part.index} of "${manifest.name}"`);
}

async function readObject(
  store: ObjectStore,
  key: string,
  range: ObjectRange | undefined,
  what: string,
): Promise<Uint8Array> {
  const object = await (range === undefined ? store.get(key) : store.get(key, range));
  if (!object) throw new Error(`Cannot read ${what}: it no longer exists (the file was replaced or removed)`);
  return new Uint8Array(await new Response(object.body).arrayBuffer());
}

/** The index just after the `lines`-th line break of `bytes` from `from` on (the length when there are fewer). */
function afterLines(bytes: Uint8Array, from: number, lines: number): number {
  let i = from;
  for (let left = lines; left > 0; left--) {
    const lf = bytes.indexOf(LF, i);
    if (lf < 0) return bytes.length;
    i = lf + 1;
  }
  return i;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
