import type { MultipartWrite, ObjectStore, StoredObject, UploadedSegment } from "./object-store.ts";
import type { UploadSlots } from "./upload-slots.ts";

/** The first buffer a part gets; it doubles as the part grows, up to the segment size. */
const INITIAL_BUFFER_BYTES = 64 * 1024;

/**
 * One output part being written. Bytes go into a buffer that grows up to `segmentBytes`; a part that ends
 * within one segment is stored with a single `put`, a larger one becomes a multipart write whose segments
 * are all exactly `segmentBytes` except the last. Every upload runs in a slot of the shared
 * {@linkcode UploadSlots}, which bounds the bytes held in memory.
 */
export class PartUpload {
  /** The key the part is stored under. */
  readonly key: string;
  /** The store's description of the finished part; set by {@linkcode finish}. */
  result: Promise<StoredObject> | undefined;
  readonly #store: ObjectStore;
  readonly #slots: UploadSlots;
  readonly #segmentBytes: number;
  #buffer: Uint8Array;
  #used = 0;
  #shipped = 0;
  #multipart: Promise<MultipartWrite> | undefined;
  readonly #segments: Promise<UploadedSegment>[] = [];

  /** Starts an empty part under `key`. */
  constructor(store: ObjectStore, slots: UploadSlots, key: string, segmentBytes: number) {
    this.key = key;
    this.#store = store;
    this.#slots = slots;
    this.#segmentBytes = segmentBytes;
    this.#buffer = new Uint8Array(Math.min(INITIAL_BUFFER_BYTES, segmentBytes));
  }

  /** Bytes written to the part so far. */
  get bytes(): number {
    return this.#shipped + this.#used;
  }

  /**
   * The free space of the current segment, to write into before calling {@linkcode commit}. Grows the
   * buffer when it is full but smaller than a segment; empty when the segment is full.
   */
  window(): Uint8Array {
    if (this.#used === this.#buffer.length && this.#buffer.length < this.#segmentBytes) {
      const grown = new Uint8Array(Math.min(this.#buffer.length * 2, this.#segmentBytes));
      grown.set(this.#buffer);
      this.#buffer = grown;
    }
    return this.#buffer.subarray(this.#used);
  }

  /** Records that `count` bytes were written at the start of the last {@linkcode window}. */
  commit(count: number): void {
    this.#used += count;
  }

  /**
   * Uploads the full current segment as the next part of a multipart write. Returns a promise only when it
   * has to wait for an upload slot; the caller must wait for it before writing on.
   */
  flushSegment(): Promise<void> | undefined {
    const wait = this.#slots.acquire();
    if (wait) return wait.then(() => this.#shipSegment());
    this.#shipSegment();
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
    await Promise.allSettled(this.#segments);
    const write = await multipart;
    await write.abort();
  }

  #takeBuffer(): Uint8Array {
    const data = this.#buffer.subarray(0, this.#used);
    this.#shipped += this.#used;
    this.#used = 0;
    this.#buffer = new Uint8Array(0);
    return data;
  }

  #shipSegment(): void {
    this.#uploadSegment(this.#takeBuffer());
    this.#buffer = new Uint8Array(this.#segmentBytes);
  }

  #uploadSegment(data: Uint8Array): void {
    const multipart = (this.#multipart ??= quiet(this.#store.createMultipartWrite(this.key)));
    const partNumber = this.#segments.length + 1;
    this.#segments.push(quiet(this.#slots.run(async () => (await multipart).uploadPart(partNumber, data))));
  }

  #shipLast(): void {
    const data = this.#takeBuffer();
    if (this.#multipart) {
      this.#uploadSegment(data);
      this.#complete();
    } else {
      this.result = quiet(this.#slots.run(() => this.#store.put(this.key, data)));
    }
  }

  #complete(): void {
    const multipart = this.#multipart!;
    this.#buffer = new Uint8Array(0);
    this.result = quiet(Promise.all(this.#segments).then(async (uploaded) => (await multipart).complete(uploaded)));
  }
}

/** Marks a promise as handled (its rejection is observed later by whoever awaits it) and returns it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
