/**
 * The floor of scenario 3: parse, re-encode and rotate into parts in one loop over the bytes, with no streams
 * and no intermediate arrays. Only for the benchmark's canonical input (non-negative integers, `\n` endings).
 *
 * @module
 */
import { DIGIT_PAIRS, digitCount } from "../../src/numbers/number-encoder.ts";
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

/** The loop itself, synchronous and over locals so that it compiles to tight code. */
function fuseChunk(state: FusedState, chunk: Uint8Array, maxPartBytes: number): void {
  let part = state.part;
  let pos = state.pos;
  let acc = state.acc;
  let inNumber = state.inNumber;
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i]!;
    if (byte !== LF) {
      acc = acc * 10 + (byte - ZERO);
      inNumber = true;
      continue;
    }
    if (!inNumber) continue;
    const digits = digitCount(acc);
    if (pos + digits >= maxPartBytes) {
      state.full.push(part.subarray(0, pos));
      part = state.buffers.take();
      pos = 0;
    }
    let p = pos + digits;
    part[p] = LF;
    pos = p + 1;
    let rest = acc;
    while (rest > 0x7fffffff) {
      const high = Math.floor(rest / 10);
      part[--p] = ZERO + (rest - high * 10);
      rest = high;
    }
    let small = rest | 0;
    while (small >= 100) {
      const high = (small / 100) | 0;
      const pair = (small - high * 100) << 1;
      part[--p] = DIGIT_PAIRS[pair + 1]!;
      part[--p] = DIGIT_PAIRS[pair]!;
      small = high;
    }
    if (small >= 10) {
      part[--p] = DIGIT_PAIRS[(small << 1) + 1]!;
      part[--p] = DIGIT_PAIRS[small << 1]!;
    } else {
      part[--p] = ZERO + small;
    }
    acc = 0;
    inNumber = false;
  }
  state.part = part;
  state.pos = pos;
  state.acc = acc;
  state.inNumber = inNumber;
}
