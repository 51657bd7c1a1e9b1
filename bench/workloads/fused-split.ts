/**
 * The floor of scenario 3: parse, re-encode and rotate into parts in one loop over the bytes, with no streams
 * and no intermediate arrays. Only for the benchmark's canonical input (non-negative integers, `\n` endings).
 *
 * @module
 */
import { DIGIT_PAIRS, digitCount } from "../../src/numbers/number-encoder.ts";
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
  const keys: string[] = [];
  const state: FusedState = { part: new Uint8Array(maxPartBytes), pos: 0, acc: 0, inNumber: false, full: [] };
  const ship = async (data: Uint8Array): Promise<void> => {
    const key = `${prefix}part-${String(keys.length).padStart(8, "0")}`;
    keys.push(key);
    await store.put(key, data);
  };
  for (const chunk of chunks) {
    fuseChunk(state, chunk, maxPartBytes);
    for (const data of state.full) await ship(data);
    state.full.length = 0;
  }
  if (state.inNumber) throw new Error("Cannot split: the input does not end with a line break");
  if (state.pos > 0) await ship(state.part.subarray(0, state.pos));
  return keys;
}

/** What the fused loop carries from one chunk to the next. */
interface FusedState {
  part: Uint8Array;
  pos: number;
  acc: number;
  inNumber: boolean;
  /** Parts filled during the last chunk, to store. */
  full: Uint8Array[];
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
      part = new Uint8Array(maxPartBytes);
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
