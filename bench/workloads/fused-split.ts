/**
 * The floor of scenario 3: parse, re-encode and rotate into parts in one loop over the bytes, with no streams
 * and no intermediate arrays. Only for the benchmark's canonical input (non-negative integers, `\n` endings).
 *
 * @module
 */
import { digitCount, PAIRS16, QUADS } from "../../src/numbers/number-encoder.ts";
import { ChunkBuffers } from "../../src/split/chunk-buffers.ts";
import type { ObjectStore } from "../../src/store/object-store.ts";

const LF = 0x0a;
const ZERO = 0x30;

/**
 * Parses every line of `chunks` into a number, encodes it again as a decimal line into a part buffer of
 * `maxPartBytes`, and stores each full part in `store` under `<prefix>part-<index>` (rotating before a line that
 * would not fit). Returns the part keys in order.
 *
 * @example
 * ```ts
 * const keys = await fusedSplit(chunksOf(bytes), new MemoryStore(), "fused/", 10 << 20);
 * ```
 */
export async function fusedSplit(
  chunks: readonly Uint8Array[],
  store: ObjectStore,
  prefix: string,
  maxPartBytes: number,
): Promise<string[]> {
  const split = new FusedSplit(store, prefix, maxPartBytes);
  for (const chunk of chunks) {
    const shipping = split.push(chunk);
    if (shipping) await shipping;
  }
  return split.end();
}

/**
 * {@linkcode fusedSplit} a chunk at a time, for chunks that arrive one by one (a request body's reads): each chunk
 * is consumed before {@linkcode push} returns, so its buffer may be reused at once.
 *
 * @example
 * ```ts
 * const split = new FusedSplit(new MemoryStore(), "fused/", 10 << 20);
 * await split.push(new TextEncoder().encode("2\n3\n"));
 * await split.end(); // ["fused/part-00000000"]
 * ```
 */
export class FusedSplit {
  readonly #store: ObjectStore;
  readonly #prefix: string;
  readonly #maxPartBytes: number;
  readonly #keys: string[] = [];
  readonly #state: FusedState;
  readonly #buffers: ChunkBuffers;

  /** Splits into `store` under `<prefix>part-<index>`, parts of at most `maxPartBytes`. */
  constructor(store: ObjectStore, prefix: string, maxPartBytes: number) {
    this.#store = store;
    this.#prefix = prefix;
    this.#maxPartBytes = maxPartBytes;
    const buffers = new ChunkBuffers(maxPartBytes);
    this.#buffers = buffers;
    this.#state = { part: buffers.take(), pos: 0, acc: 0, inNumber: false, full: [], buffers };
  }

  /** Consumes `chunk`; returns a promise only when it filled parts, which are stored before it settles. */
  push(chunk: Uint8Array): Promise<void> | undefined {
    const state = this.#state;
    fuseChunk(state, chunk, this.#maxPartBytes);
    if (state.full.length === 0) return undefined;
    const full = state.full.splice(0);
    return (async () => {
      for (const data of full) await this.#ship(data);
    })();
  }

  /** Stores the last part and returns every part's key in order. */
  async end(): Promise<string[]> {
    const state = this.#state;
    if (state.inNumber) throw new Error("Cannot split: the input does not end with a line break");
    if (state.pos > 0) await this.#ship(state.part.subarray(0, state.pos));
    else this.#buffers.give(state.part);
    return this.#keys;
  }

  async #ship(data: Uint8Array): Promise<void> {
    const key = `${this.#prefix}part-${String(this.#keys.length).padStart(8, "0")}`;
    this.#keys.push(key);
    await this.#store.put(key, data);
    this.#buffers.give(new Uint8Array(data.buffer, data.byteOffset, this.#maxPartBytes));
  }
}

/** What the fused loop carries from one chunk to the next. */
interface FusedState {
  part: Uint8Array;
  pos: number;
  acc: number;
  inNumber: boolean;
  /** Parts filled during the last chunk, to store. */
  full: Uint8Array[];
  /** Where part buffers come from: reused once stored, as the upload path's are. */
  buffers: ChunkBuffers;
}

/** Room after a line's start to read it four digits at a time: 15 digits, its `\n` and a load's overreach. */
const WHOLE_LINE_BYTES = 20;

/** The value of the line {@link readWholeLine} read last (a second result, kept out of an object). */
let wholeLineValue = 0;

/**
 * Reads the line starting at `i`, which lies whole in `chunk` with {@link WHOLE_LINE_BYTES} to spare, four digits
 * at a time (one 32-bit load, a SWAR digit test, three multiplications), then a byte at a time; leaves its value in
 * {@link wholeLineValue} and returns where the next line starts. Its own function, so that the chunk's loop holds no
 * inner loop: V8 compiled that loop on stack replacement at an inner loop and left the compiled code at every line
 * (thousands of deoptimizations per run, the floor's time varying by half between processes).
 */
function readWholeLine(chunk: Uint8Array, input: DataView, i: number): number {
  let value = chunk[i++]! - ZERO;
  for (;;) {
    const word = input.getUint32(i, true);
    const lanes = word - 0x30303030;
    if (((lanes | (word + 0x46464646)) & 0x80808080) !== 0) break;
    const pairs = (lanes & 0x00ff00ff) * 10 + ((lanes >>> 8) & 0x00ff00ff);
    value = value * 10_000 + ((pairs & 0xffff) * 100 + (pairs >>> 16));
    i += 4;
  }
  for (let byte = chunk[i]!; byte !== LF; byte = chunk[++i]!) value = value * 10 + (byte - ZERO);
  wholeLineValue = value;
  return i + 1;
}

/**
 * Writes `value` and a line break into `part` (viewed by `out`) ending at `end` (where the line break goes), four
 * digits per store, then two (`QUADS`, `PAIRS16`), from the last digit back.
 */
function writeLine(part: Uint8Array, out: DataView, end: number, value: number): void {
  let p = end;
  part[p] = LF;
  let rest = value;
  while (rest > 0x7fffffff) {
    const high = Math.floor(rest / 10_000);
    p -= 4;
    out.setUint32(p, QUADS[rest - high * 10_000]!, true);
    rest = high;
  }
  let small = rest | 0;
  while (small >= 10_000) {
    const high = (small / 10_000) | 0;
    p -= 4;
    out.setUint32(p, QUADS[small - high * 10_000]!, true);
    small = high;
  }
  if (small >= 100) {
    const high = (small / 100) | 0;
    p -= 2;
    out.setUint16(p, PAIRS16[small - high * 100]!, true);
    small = high;
  }
  if (small >= 10) out.setUint16(p - 2, PAIRS16[small]!, true);
  else part[p - 1] = ZERO + small;
}

/**
 * The loop itself, synchronous and over locals so that it compiles to tight code, with the upload path's own tricks
 * (so that it stays a floor for it): a line that lies whole in the chunk is read four digits at a time
 * ({@link readWholeLine}), and each number is written four digits per store, then two ({@link writeLine}). A line
 * cut by the chunk's end is read a byte at a time, carried to the next chunk.
 */
function fuseChunk(state: FusedState, chunk: Uint8Array, maxPartBytes: number): void {
  let part = state.part;
  let out = new DataView(part.buffer, part.byteOffset, part.byteLength);
  const input = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const wholeEnd = chunk.length - WHOLE_LINE_BYTES;
  let pos = state.pos;
  let acc = state.acc;
  let inNumber = state.inNumber;
  let i = 0;
  while (i < chunk.length) {
    if (!inNumber && i < wholeEnd) {
      i = readWholeLine(chunk, input, i);
      acc = wholeLineValue;
    } else {
      const byte = chunk[i++]!;
      if (byte !== LF) {
        acc = acc * 10 + (byte - ZERO);
        inNumber = true;
        continue;
      }
      if (!inNumber) continue;
    }
    const digits = digitCount(acc);
    if (pos + digits >= maxPartBytes) {
      state.full.push(part.subarray(0, pos));
      part = state.buffers.take();
      out = new DataView(part.buffer, part.byteOffset, part.byteLength);
      pos = 0;
    }
    writeLine(part, out, pos + digits, acc);
    pos += digits + 1;
    acc = 0;
    inNumber = false;
  }
  state.part = part;
  state.pos = pos;
  state.acc = acc;
  state.inNumber = inNumber;
}
