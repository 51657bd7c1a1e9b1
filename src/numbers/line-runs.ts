import { type LineMarks, NO_MARK } from "./canonical-lines.ts";

/** A run of {@linkcode LineRuns}: numbers of lines to encode, at `numbers[start..end)`. */
export const NUMBER_RUN = 0;
/** A run of {@linkcode LineRuns}: canonical lines left as they are in the chunk, at `chunk[start..end)`. */
export const CHUNK_RUN = 1;
/** A run of {@linkcode LineRuns}: lines written in canonical form by the parser, at `bytes[start..end)`. */
export const NORMALIZED_RUN = 2;

/** Fields a run of {@linkcode LineRuns} takes. */
const FIELDS = 7;
/** A run's order: not known, non-decreasing, or not. */
const ORDER_UNKNOWN = 0;
const ORDER_SORTED = 1;
const ORDER_UNSORTED = 2;

/** What a run of {@linkcode LineRuns} holds. */
export type LineRunKind = typeof NUMBER_RUN | typeof CHUNK_RUN | typeof NORMALIZED_RUN;

/**
 * The lines one chunk completes, in order, as {@linkcode NumberParser.pushLines} hands them over: runs of lines
 * already in canonical form, left as byte ranges of the chunk ({@linkcode CHUNK_RUN}); runs of lines the parser
 * wrote in canonical form into {@linkcode bytes} ({@linkcode NORMALIZED_RUN}); and runs of numbers to encode
 * ({@linkcode NUMBER_RUN}). Storing every run in order stores what encoding every line's number would. Runs of lines
 * in canonical form also name where their marked lines start ({@linkcode marksOf}: every {@linkcode markEvery}-th
 * line of the whole input, which a storer indexes). The object is reused by every push, so its contents last until
 * the next one.
 *
 * @example
 * ```ts
 * const parser = new NumberParser();
 * const runs = new LineRuns();
 * parser.pushLines(new TextEncoder().encode("2\n3\n05\r\n7\n"), runs);
 * runs.count; // 2
 * // "2\n3\n", left as it is in the chunk:
 * [runs.kind(0), runs.start(0), runs.end(0), runs.lines(0)]; // [CHUNK_RUN, 0, 4, 2]
 * // "5\n7\n", written by the parser:
 * new TextDecoder().decode(runs.bytes.subarray(runs.start(1), runs.end(1))); // "5\n7\n"
 * ```
 */
export class LineRuns {
  /** How many runs the last push produced. */
  count = 0;
  /**
   * Which lines the parser marks in runs of lines in canonical form (set by whoever stores them): those whose 0-based
   * index among the numbers of the whole input is a multiple of it (default: none).
   */
  markEvery = Number.POSITIVE_INFINITY;
  /**
   * Whether the parser finds the order of runs of canonical lines (see {@linkcode sorted}); set by the storer. Without,
   * they are reported as not sorted.
   */
  order = false;
  /** The numbers of {@linkcode NUMBER_RUN} runs. */
  numbers: Float64Array = new Float64Array(0);
  /** The lines of {@linkcode NORMALIZED_RUN} runs. */
  bytes: Uint8Array = new Uint8Array(0);
  /** The marked lines of all runs, for the parser's scans: each run's are a range of them (see {@linkcode marksOf}). */
  readonly marks: LineMarks = { every: NO_MARK, next: NO_MARK, offsets: new Int32Array(16), count: 0 };
  /** Per run: kind, start, end, line count, order (see {@linkcode sorted}), first and end of its marks. */
  #fields = new Int32Array(16 * FIELDS);
  /** Marks that belong to a run already. */
  #assigned = 0;

  /** What run `k` holds. */
  kind(k: number): LineRunKind {
    return this.#fields[FIELDS * k] as LineRunKind;
  }

  /** Where run `k` starts (in `numbers`, the chunk or `bytes`, after its kind). */
  start(k: number): number {
    return this.#fields[FIELDS * k + 1]!;
  }

  /** Where run `k` ends. */
  end(k: number): number {
    return this.#fields[FIELDS * k + 2]!;
  }

  /** How many lines run `k` stores (its numbers, for a {@linkcode NUMBER_RUN}). */
  lines(k: number): number {
    return this.#fields[FIELDS * k + 3]!;
  }

  /**
   * Whether the numbers of run `k` are non-decreasing: for a run of canonical lines ({@linkcode CHUNK_RUN},
   * {@linkcode NORMALIZED_RUN}), `true` or `false` when the parser looked for it ({@linkcode order}), else `false`;
   * `undefined` for a {@linkcode NUMBER_RUN}.
   */
  sorted(k: number): boolean | undefined {
    const order = this.#fields[FIELDS * k + 4]!;
    return order === ORDER_UNKNOWN ? undefined : order === ORDER_SORTED;
  }

  /**
   * Where the marked lines of run `k` start, from the run's start: a view of {@linkcode marks}, valid until the next
   * push.
   */
  marksOf(k: number): Int32Array {
    const fields = this.#fields;
    return this.marks.offsets.subarray(fields[FIELDS * k + 5], fields[FIELDS * k + 6]);
  }

  /** Sets {@linkcode marks} to count down from the next line when `numbers` numbers came before it; for the parser. */
  markFrom(numbers: number): void {
    const every = this.markEvery;
    const marks = this.marks;
    if (every === Number.POSITIVE_INFINITY) {
      marks.every = NO_MARK;
      marks.next = NO_MARK;
    } else {
      marks.every = every;
      marks.next = (every - (numbers % every)) % every;
    }
  }

  /** Empties the runs and makes room for what a chunk of `length` bytes can produce; for the parser. */
  reset(length: number): void {
    this.count = 0;
    this.marks.count = 0;
    this.#assigned = 0;
    // Every number completed in a chunk but the first needs a digit and a line break of its own.
    const numbers = (length >>> 1) + 1;
    if (this.numbers.length < numbers) this.numbers = new Float64Array(numbers);
    if (this.bytes.length < length) this.bytes = new Uint8Array(length);
  }

  /**
   * Appends a run, or extends the last one when both are {@linkcode NUMBER_RUN}s and it ends where this one starts
   * (runs of canonical lines know their own order: the parser extends them with {@linkcode extend}). `sorted`: the
   * run's order, when known. The marks added since the last run was added or extended are the new run's, and are
   * made relative to its start.
   */
  add(kind: LineRunKind, start: number, end: number, lines: number, sorted?: boolean): void {
    let fields = this.#fields;
    const last = FIELDS * (this.count - 1);
    if (this.count > 0 && kind === NUMBER_RUN && fields[last] === kind && fields[last + 2] === start) {
      fields[last + 2] = end;
      fields[last + 3]! += lines;
      return;
    }
    const at = FIELDS * this.count;
    if (at === fields.length) {
      fields = new Int32Array(2 * at);
      fields.set(this.#fields);
      this.#fields = fields;
    }
    fields[at] = kind;
    fields[at + 1] = start;
    fields[at + 2] = end;
    fields[at + 3] = lines;
    fields[at + 4] = sorted === undefined ? ORDER_UNKNOWN : sorted ? ORDER_SORTED : ORDER_UNSORTED;
    fields[at + 5] = this.#assigned;
    fields[at + 6] = this.#assign(start);
    this.count++;
  }

  /**
   * Extends the last run to `end` with `lines` more lines, and the marks added since; `sorted`: whether they are
   * non-decreasing and none is below the run's last number (the run stays sorted only then).
   */
  extend(end: number, lines: number, sorted: boolean): void {
    const last = FIELDS * (this.count - 1);
    const fields = this.#fields;
    fields[last + 2] = end;
    fields[last + 3]! += lines;
    if (!sorted) fields[last + 4] = ORDER_UNSORTED;
    fields[last + 6] = this.#assign(fields[last + 1]!);
  }

  /** Makes the marks not yet assigned to a run relative to `start`, assigns them, and returns where they end. */
  #assign(start: number): number {
    const { offsets, count } = this.marks;
    for (let m = this.#assigned; m < count; m++) offsets[m]! -= start;
    this.#assigned = count;
    return count;
  }
}
