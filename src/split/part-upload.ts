import type { MultipartWrite, ObjectStore, StoredObject, UploadedPart } from "../store/object-store.ts";
import type { ChunkBuffers } from "./chunk-buffers.ts";
import type { UploadSlots } from "./upload-slots.ts";

/**
 * One output part being written. Bytes go into a chunk buffer from the shared {@linkcode ChunkBuffers};
 * a part that ends within one chunk is stored with a single `put`, a larger one becomes a multipart write
 * whose chunks are all exactly one buffer long except the last. Every upload runs in a slot of the shared
 * {@linkcode UploadSlots}, which bounds the bytes held in memory, and gives its buffer back once settled.
 */
export class PartUpload {
  /** The key the part is stored under. */
  readonly key: string;
  /** The store's description of the finished part; set by {@linkcode finish}. */
  result: Promise<StoredObject> | undefined;
  readonly #store: ObjectStore;
  readonly #slots: UploadSlots;
  readonly #buffers: ChunkBuffers;
  #buffer: Uint8Array;
  #used = 0;
  #shipped = 0;
  #multipart: Promise<MultipartWrite> | undefined;
  readonly #chunks: Promise<UploadedPart>[] = [];

  /** Starts an empty part under `key`. */
  constructor(store: ObjectStore, slots: UploadSlots, key: string, buffers: ChunkBuffers) {
    this.key = key;
    this.#store = store;
    this.#slots = slots;
    this.#buffers = buffers;
    this.#buffer = buffers.take();
  }

  /** Bytes written to the part so far. */
  get bytes(): number {
    return this.#shipped + this.#used;
  }

  /** The free space of the current chunk, to write into before calling {@linkcode commit}; empty when full. */
  window(): Uint8Array {
    return this.#buffer.subarray(this.#used);
  }

  /** Records that `count` bytes were written at the start of the last {@linkcode window}. */
  commit(count: number): void {
    this.#used += count;
  }

  /**
   * Uploads the full current chunk as the next part of a multipart write. Returns a promise only when it
   * has to wait for an upload slot; the caller must wait for it before writing on.
   */
  flushChunk(): Promise<void> | undefined {
    const wait = this.#slots.acquire();
    if (wait) return wait.then(() => this.#shipChunk());
    this.#shipChunk();
    return undefined;
  }

  /**
   * Uploads what remains and sets {@linkcode result}. Returns a promise only when it has to wait for an
   * upload slot; the caller must wait for it before writing on.
   */
  finish(): Promise<void> | undefined {
    if (this.#multipart && this.#used === 0) {
      this.#complete();
      return undefined;
    }
    const wait = this.#slots.acquire();
    if (wait) return wait.then(() => this.#shipLast());
    this.#shipLast();
    return undefined;
  }

  /** Abandons a multipart write this part started; put parts are removed by the caller's cleanup. */
  async abort(): Promise<void> {
    const multipart = this.#multipart;
    if (!multipart) return;
    await Promise.allSettled(this.#chunks);
    const write = await multipart;
    await write.abort();
  }

  #takeBuffer(): { buffer: Uint8Array; data: Uint8Array } {
    const buffer = this.#buffer;
    const data = buffer.subarray(0, this.#used);
    this.#shipped += this.#used;
    this.#used = 0;
    this.#buffer = EMPTY;
    return { buffer, data };
  }

  #shipChunk(): void {
    this.#uploadChunk(this.#takeBuffer());
    this.#buffer = this.#buffers.take();
  }

  #uploadChunk({ buffer, data }: { buffer: Uint8Array; data: Uint8Array }): void {
    this.#multipart ??= quiet(this.#store.createMultipartWrite(this.key));
    const multipart = this.#multipart;
    const partNumber = this.#chunks.length + 1;
    const uploaded = this.#slots.run(async () => (await multipart).uploadPart(partNumber, data));
    this.#chunks.push(quiet(this.#recycle(uploaded, buffer)));
  }

  #shipLast(): void {
    const taken = this.#takeBuffer();
    if (this.#multipart) {
      this.#uploadChunk(taken);
      this.#complete();
    } else {
      this.result = quiet(
        this.#recycle(
          this.#slots.run(() => this.#store.put(this.key, taken.data)),
          taken.buffer,
        ),
      );
    }
  }

  #complete(): void {
    const multipart = this.#multipart!;
    this.#buffers.give(this.#buffer);
    this.#buffer = EMPTY;
    this.result = quiet(Promise.all(this.#chunks).then(async (uploaded) => (await multipart).complete(uploaded)));
  }

  /** Gives `buffer` back to the free list once `upload` has settled, whatever its outcome. */
  #recycle<T>(upload: Promise<T>, buffer: Uint8Array): Promise<T> {
    const settled = () => this.#buffers.give(buffer);
    upload.then(settled, settled);
    return upload;
  }
}

const EMPTY = new Uint8Array(0);

/** Marks a promise as handled (its rejection is observed later by whoever awaits it) and returns it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
