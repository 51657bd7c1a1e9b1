import type { MultipartWrite, ObjectRange, ObjectStore, StoredObject } from "../../src/store/object-store.ts";

/** The operations a {@linkcode FaultyStore} can be told to fail. */
export type FaultyOperation = "put" | "uploadPart" | "complete" | "createMultipartWrite" | "manifest";

/** A rule: fail the `nth` (1-based) call of `operation`. */
export interface FaultRule {
  operation: FaultyOperation;
  nth: number;
}

/**
 * Wraps a real store and fails chosen calls on command, for fault-injection tests. `manifest` names puts of
 * keys ending in `/manifest.json`; `put` counts only the other puts (parts).
 */
export class FaultyStore implements ObjectStore {
  readonly inner: ObjectStore;
  readonly calls: Record<FaultyOperation, number> = {
    put: 0,
    uploadPart: 0,
    complete: 0,
    createMultipartWrite: 0,
    manifest: 0,
  };
  readonly #rules: FaultRule[];
  #beforeManifestWrite: (() => Promise<void>) | undefined;

  /**
   * Wraps `inner`, failing the calls named by `rules`. `beforeManifestWrite` runs once, just before the
   * first conditional manifest write reaches the store: a hook to interleave a competing upload.
   */
  constructor(inner: ObjectStore, rules: FaultRule[], beforeManifestWrite?: () => Promise<void>) {
    this.inner = inner;
    this.#rules = rules;
    this.#beforeManifestWrite = beforeManifestWrite;
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    this.#maybeFail(key.endsWith("/manifest.json") ? "manifest" : "put", key);
    return this.inner.put(key, data);
  }

  async putIfMatch(key: string, data: Uint8Array, expected: string | null): Promise<StoredObject | null> {
    this.#maybeFail(key.endsWith("/manifest.json") ? "manifest" : "put", key);
    const hook = this.#beforeManifestWrite;
    this.#beforeManifestWrite = undefined;
    await hook?.();
    return this.inner.putIfMatch(key, data, expected);
  }

  async createMultipartWrite(key: string): Promise<MultipartWrite> {
    this.#maybeFail("createMultipartWrite", key);
    const write = await this.inner.createMultipartWrite(key);
    return {
      id: write.id,
      uploadPart: async (partNumber, data) => {
        this.#maybeFail("uploadPart", `${key}#${partNumber}`);
        return write.uploadPart(partNumber, data);
      },
      complete: async (parts) => {
        this.#maybeFail("complete", key);
        return write.complete(parts);
      },
      abort: () => write.abort(),
    };
  }

  abortMultipart(key: string, id: string) {
    return this.inner.abortMultipart(key, id);
  }

  get(key: string, range?: ObjectRange) {
    return this.inner.get(key, range);
  }

  list(prefix: string, options?: Parameters<ObjectStore["list"]>[1]) {
    return this.inner.list(prefix, options);
  }

  delete(keys: string[]) {
    return this.inner.delete(keys);
  }

  #maybeFail(operation: FaultyOperation, key: string): void {
    this.calls[operation] += 1;
    const count = this.calls[operation];
    if (this.#rules.some((rule) => rule.operation === operation && rule.nth === count)) {
      throw new Error(`injected failure: ${operation} #${count} (${key})`);
    }
  }
}
