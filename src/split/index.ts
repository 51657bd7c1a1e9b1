/**
 * The split layer: rotating numbers into newline-aligned, size-limited parts, the storage interface with
 * its R2 and in-memory implementations, and the manifest protocol that makes every result all-or-nothing.
 *
 * @module
 */
export * from "./file-catalog.ts";
export * from "./file-name.ts";
export * from "./list-all.ts";
export * from "./manifest.ts";
export * from "./memory-store.ts";
export * from "./object-keys.ts";
export type * from "./object-store.ts";
export * from "./part-size.ts";
export * from "./part-splitter.ts";
export * from "./r2-store.ts";
export * from "./read-manifest.ts";
export * from "./split-writable-stream.ts";
export * from "./store-error.ts";
export * from "./store-numbers.ts";
