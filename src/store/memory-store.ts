import type {
  ListOptions,
  MultipartWrite,
  ObjectListing,
  ObjectRange,
  ObjectStore,
  StoredObject,
  StoredObjectBody,
  UploadedPart,
} from "./object-store.ts";

const LIST_PAGE_SIZE = 1000;

/**
 * An {@linkcode ObjectStore} that keeps objects in memory: for unit tests of the core and for local
 * experiments. Stored bytes are copied, so callers may reuse their buffers.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put("greeting", new TextEncoder().encode("hello\n"));
 * const object = await store.get("greeting");
 * await new Response(object!.body).text(); // "hello\n"
 * ```
 */
export class MemoryStore implements ObjectStore {
  readonly #objects = new Map<string, { data: Uint8Array; etag: string }>();
  /** Open multipart writes by id, each with the way to abort it. */
  readonly #multiparts = new Map<string, () => void>();
  #version = 0;

  /** The number of objects currently stored. */
  get size(): number {
    return this.#objects.size;
  }

  /** How many multipart writes are open: started, neither completed nor aborted (a convenience for tests). */
  get openMultipartWrites(): number {
    return this.#multiparts.size;
  }

  /** The stored keys in order (a convenience for tests). */
  keys(): string[] {
    return [...this.#objects.keys()].sort();
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    return this.#store(key, data.slice());
  }

  async putIfMatch(key: string, data: Uint8Array, expected: string | null): Promise<StoredObject | null> {
    const current = this.#objects.get(key)?.etag ?? null;
    return current === expected ? this.#store(key, data.slice()) : null;
  }

  async createMultipartWrite(key: string): Promise<MultipartWrite> {
    const received = new Map<number, { data: Uint8Array; etag: string }>();
    let state: "open" | "completed" | "aborted" = "open";
    const assertOpen = (action: string) => {
      if (state !== "open") throw new Error(`Cannot ${action} multipart write of "${key}": it is ${state}`);
    };
    const id = `multipart-${this.#nextEtag()}`;
    const abort = (): void => {
      if (state === "open") state = "aborted";
      received.clear();
      this.#multiparts.delete(id);
    };
    this.#multiparts.set(id, abort);
    return {
      id,
      uploadPart: async (partNumber: number, data: Uint8Array): Promise<UploadedPart> => {
        assertOpen("upload a part of");
        const etag = this.#nextEtag();
        received.set(partNumber, { data: data.slice(), etag });
        return { partNumber, etag };
      },
      complete: async (uploaded: UploadedPart[]): Promise<StoredObject> => {
        assertOpen("complete");
        const parts = uploaded.map(({ partNumber, etag }) => {
          const stored = received.get(partNumber);
          if (stored?.etag !== etag) {
            throw new Error(`Cannot complete multipart write of "${key}": part ${partNumber} is unknown`);
          }
          return stored.data;
        });
        state = "completed";
        this.#multiparts.delete(id);
        const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
        const data = new Uint8Array(total);
        let offset = 0;
        for (const part of parts) {
          data.set(part, offset);
          offset += part.byteLength;
        }
        return this.#store(key, data);
      },
      abort: async (): Promise<void> => abort(),
    };
  }

  async abortMultipart(_key: string, id: string): Promise<void> {
    this.#multiparts.get(id)?.();
  }

  async get(key: string, range?: ObjectRange): Promise<StoredObjectBody | null> {
    const object = this.#objects.get(key);
    if (!object) return null;
    const { data, etag } = object;
    const bytes = range === undefined ? data.slice() : data.slice(range.offset, range.offset + range.length);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
    return { key, size: data.byteLength, etag, body };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectListing> {
    const { cursor, delimiter } = options;
    const entries: { key: string; prefix?: string }[] = [];
    for (const key of this.keys()) {
      if (!key.startsWith(prefix)) continue;
      const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
      const group = cut >= 0 ? key.slice(0, cut + delimiter!.length) : undefined;
      const position = group ?? key;
      if (cursor !== undefined && position <= cursor) continue;
      if (group !== undefined && entries.at(-1)?.prefix === group) continue;
      entries.push(group === undefined ? { key } : { key: group, prefix: group });
    }
    const page = entries.slice(0, Math.min(LIST_PAGE_SIZE, options.limit ?? LIST_PAGE_SIZE));
    const objects = page
      .filter((entry) => entry.prefix === undefined)
      .map(({ key }) => ({ key, size: this.#objects.get(key)!.data.byteLength, etag: this.#objects.get(key)!.etag }));
    const prefixes = page.flatMap((entry) => (entry.prefix === undefined ? [] : [entry.prefix]));
    const last = page.at(-1);
    return entries.length > page.length && last ? { objects, prefixes, cursor: last.key } : { objects, prefixes };
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) this.#objects.delete(key);
  }

  #store(key: string, data: Uint8Array): StoredObject {
    const etag = this.#nextEtag();
    this.#objects.set(key, { data, etag });
    return { key, size: data.byteLength, etag };
  }

  #nextEtag(): string {
    this.#version += 1;
    return `m${this.#version.toString(16).padStart(8, "0")}`;
  }
}
