/**
 * An {@linkcode ObjectStore} that keeps nothing, for measuring the ingest pipeline without storage cost, and
 * checking what it saw against the input. The benchmarks use it (the bench worker, scenarios 4 and 7, the memory
 * check) and the tests run the object-store contract on it, so it sits in the shared `harness/`.
 *
 * @module
 */
import type {
  ListOptions,
  MultipartWrite,
  ObjectListing,
  ObjectStore,
  StoredObject,
  UploadedPart,
} from "../src/store/object-store.ts";

/** What a {@linkcode DiscardingStore} saw of one stored object. */
export interface DiscardedObject {
  /** The key it was stored under. */
  key: string;
  /** How many bytes were written to it. */
  bytes: number;
  /** The SHA-256 of its content (hex), when the store was asked to compute digests. */
  sha256?: string;
}

/**
 * Accepts every write and forgets its bytes; reads find nothing. It records each object's key and size, and,
 * when constructed with `digests`, the SHA-256 of its content so a caller can check the output byte for byte
 * without the bytes being kept (computing digests costs time: leave it off in timed runs).
 *
 * @example
 * ```ts
 * const store = new DiscardingStore({ digests: true });
 * await store.put("a", new Uint8Array(3));
 * store.objects; // [{ key: "a", bytes: 3, sha256: "709e80c8…" }]
 * ```
 */
export class DiscardingStore implements ObjectStore {
  readonly #digests: boolean;
  /** Every object written, in the order the writes finished. */
  readonly objects: DiscardedObject[] = [];
  #version = 0;

  /** `digests`: compute each object's SHA-256. */
  constructor(options: { digests?: boolean } = {}) {
    this.#digests = options.digests ?? false;
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    const object: DiscardedObject = { key, bytes: data.byteLength };
    if (this.#digests) object.sha256 = await sha256(data);
    this.objects.push(object);
    return this.#describe(key, data.byteLength);
  }

  async putIfMatch(key: string, data: Uint8Array): Promise<StoredObject | null> {
    return this.put(key, data);
  }

  async createMultipartWrite(key: string): Promise<MultipartWrite> {
    const sizes: number[] = [];
    const kept: Uint8Array[] = [];
    return {
      id: `discarded-${key}`,
      uploadPart: async (partNumber: number, data: Uint8Array): Promise<UploadedPart> => {
        sizes[partNumber - 1] = data.byteLength;
        if (this.#digests) kept[partNumber - 1] = data.slice();
        return { partNumber, etag: `d${partNumber}` };
      },
      complete: async (): Promise<StoredObject> => {
        const total = sizes.reduce((sum, size) => sum + size, 0);
        const object: DiscardedObject = { key, bytes: total };
        if (this.#digests) {
          const joined = new Uint8Array(total);
          let offset = 0;
          for (const segment of kept) {
            joined.set(segment, offset);
            offset += segment.byteLength;
          }
          object.sha256 = await sha256(joined);
        }
        this.objects.push(object);
        return this.#describe(key, total);
      },
      abort: async (): Promise<void> => undefined,
    };
  }

  async abortMultipart(): Promise<void> {}

  async get(_key: string): Promise<null> {
    return null;
  }

  async list(_prefix: string, _options?: ListOptions): Promise<ObjectListing> {
    return { objects: [], prefixes: [] };
  }

  async delete(): Promise<void> {}

  #describe(key: string, size: number): StoredObject {
    this.#version += 1;
    return { key, size, etag: `discarded-${this.#version}` };
  }
}

/** The SHA-256 of `data` as lowercase hex. */
export async function sha256(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `objects`, in order and stored with digests, are `bytes` cut into consecutive pieces: their sizes add
 * up to `bytes.length` and each one's SHA-256 is that of its piece. An object without a digest never matches.
 *
 * @example
 * ```ts
 * const store = new DiscardingStore({ digests: true });
 * await store.put("a", bytes.subarray(0, 2));
 * await store.put("b", bytes.subarray(2));
 * await discardedEqual(store.objects, bytes); // true
 * ```
 */
export async function discardedEqual(objects: readonly DiscardedObject[], bytes: Uint8Array): Promise<boolean> {
  let offset = 0;
  for (const object of objects) {
    if (object.sha256 !== (await sha256(bytes.subarray(offset, offset + object.bytes)))) return false;
    offset += object.bytes;
  }
  return offset === bytes.length;
}
