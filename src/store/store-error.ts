/** The storage operations a {@linkcode StoreError} can name. */
export type StoreOperation = "put" | "uploadPart" | "complete" | "abort" | "get" | "list" | "delete" | "create";

/**
 * A storage operation failed. The original failure is kept as `cause`.
 *
 * @example
 * ```ts
 * import type { ObjectStore } from "./object-store.ts";
 * declare const store: ObjectStore;
 * declare const key: string;
 * declare const bytes: Uint8Array;
 * try {
 *   await store.put(key, bytes);
 * } catch (error) {
 *   throw new StoreError("put", key, { cause: error });
 * }
 * ```
 */
export class StoreError extends Error {
  override name = "StoreError";
  /** The operation that failed. */
  readonly operation: StoreOperation;
  /** The key (or prefix) the operation was working on. */
  readonly key: string;

  /** Builds the error; the message names the operation, the key and the cause's message. */
  constructor(operation: StoreOperation, key: string, options?: { cause?: unknown }) {
    const detail = options?.cause instanceof Error ? `: ${options.cause.message}` : "";
    super(`Cannot ${operation} "${key}" in storage${detail}`, options);
    this.operation = operation;
    this.key = key;
  }
}
