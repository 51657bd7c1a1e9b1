/**
 * The lines one chunk completes, in order, as {@linkcode NumberParser.pushLines} hands them over: runs of
 * canonical lines left as byte ranges of the chunk, and between them the numbers of the other lines (to be
 * encoded again). Run `k` is first the numbers `numbers[numberStart(k)..numberEnd(k))`, then the canonical lines
 * `chunk[byteStart(k)..byteEnd(k))` (`lines(k)` of them); either part may be empty. The object is reused by
 * every push, so its contents last until the next one.
 *
 * @example
 * ```ts
 * const parser = new NumberParser();
 * const runs = new LineRuns();
 * parser.pushLines(new TextEncoder().encode("2\n3\n05\n7\n"), runs);
 * runs.count; // 2
 * // "2\n3\n", left as it is:
 * [runs.byteStart(0), runs.byteEnd(0), runs.lines(0)]; // [0, 4, 2]
 * // From the first line that is not canonical on, the parser takes a window of lines the exact way:
 * Array.from(runs.numbers.subarray(runs.numberStart(1), runs.numberEnd(1))); // [5, 7]
 * [runs.byteStart(1), runs.byteEnd(1), runs.lines(1)]; // [9, 9, 0]
 * ```
 */
export class LineRuns {
  /** How many runs the last push produced. */
  count = 0;
  /** The numbers of the non-canonical lines, indexed by {@linkcode numberStart} and {@linkcode numberEnd}. */
  numbers: Float64Array = new Float64Array(0);
  /** Per run: number end, byte start, byte end, line count. */
  #fields = new Int32Array(64);

  /** Where run `k`'s numbers start. */
  numberStart(k: number): number {
    return k === 0 ? 0 : this.#fields[4 * k - 4]!;
  }

  /** Where run `k`'s numbers end. */
  numberEnd(k: number): number {
    return this.#fields[4 * k]!;
  }

  /** Where run `k`'s canonical lines start in the chunk. */
  byteStart(k: number): number {
    return this.#fields[4 * k + 1]!;
  }

  /** Where run `k`'s canonical lines end in the chunk (just after a line break). */
  byteEnd(k: number): number {
    return this.#fields[4 * k + 2]!;
  }

  /** How many canonical lines run `k` holds. */
  lines(k: number): number {
    return this.#fields[4 * k + 3]!;
  }

  /** Empties the runs and makes room for `numbers` numbers; for the parser. */
  reset(numbers: number): void {
    this.count = 0;
    if (this.numbers.length < numbers) this.numbers = new Float64Array(numbers);
  }

  /** Appends a run: the numbers up to `numberEnd`, then `lines` canonical lines at `[byteStart, byteEnd)`. */
  add(numberEnd: number, byteStart: number, byteEnd: number, lines: number): void {
    let fields = this.#fields;
    const at = 4 * this.count;
    if (at === fields.length) {
      fields = new Int32Array(2 * at);
      fields.set(this.#fields);
      this.#fields = fields;
    }
    fields[at] = numberEnd;
    fields[at + 1] = byteStart;
    fields[at + 2] = byteEnd;
    fields[at + 3] = lines;
    this.count++;
  }
}
