/**
 * The storage layer: the {@link ObjectStore} interface that every higher layer writes through, its drivers
 * (R2 through the Workers binding, and an in-memory store for tests and tools), and the helpers that page
 * through a listing.
 *
 * @module
 */
export { deleteAll, listAll, listPages, listPrefixes } from "./list-all.ts";
export { MemoryStore } from "./memory-store.ts";
export type {
  ListOptions,
  MultipartWrite,
  ObjectListing,
  ObjectRange,
  ObjectStore,
  StoredObject,
  StoredObjectBody,
  UploadedPart,
} from "./object-store.ts";
export { type R2BucketLike, R2Store } from "./r2-store.ts";
export { StoreError, type StoreOperation } from "./store-error.ts";
