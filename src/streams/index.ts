/**
 * drainpipe streams: a WHATWG Streams implementation with no dependencies, plus non-standard,
 * feature-detectable extensions for moving many small chunks cheaply.
 *
 * Internal state: the specification's internal slots, which other engine modules read and write, are
 * `_camelCase` fields tagged internal in their TSDoc (so they cannot be `#private`; the published declarations
 * leave them out); state private to one class uses TypeScript `private`. The one `#private` field is the brand
 * mark in `standard/webidl.ts`.
 *
 * Layout: `base/` (promise helpers, completions, debug assertions), `standard/` (the standard's pieces that involve
 * no stream), `engine/` (the stream classes with drainpipe's fast paths woven in), and drainpipe's additions on top
 * (`adapters/`, `iterable/`, `extensions/`); each folder imports only the ones before it (see `README.md` here).
 * @module
 */

export { BufferPool, type BufferPoolOptions, DEFAULT_MAX_FREE_BUFFERS } from "./adapters/buffer-pool.ts";
export { collectBytes } from "./adapters/collect-bytes.ts";
export { type FromNativeOptions, fromNativeStream } from "./adapters/from-native.ts";
export { type ReadPace, ReadTimeoutError, readDeadline } from "./adapters/read-pace.ts";
export {
  DEFAULT_CHUNK_SIZE,
  type FillResult,
  type SizedByteSource,
  type SizedByteStreamOptions,
  sizedByteStream,
} from "./adapters/sized-byte-stream.ts";
export { toFixedLengthNativeStream, toNativeStream } from "./adapters/to-native.ts";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_CHUNKS,
  type ReadManyOptions,
  type ReadManyResult,
} from "./engine/fast-paths/read-many.ts";
export { ReadableByteStreamController } from "./engine/readable-byte-stream-controller.ts";
export {
  ReadableStream,
  type ReadableStreamGetReaderOptions,
  type ReadableStreamIteratorOptions,
  type ReadableWritablePair,
  type StreamPipeOptions,
} from "./engine/readable-stream.ts";
export type { ReadableStreamAsyncIterator } from "./engine/readable-stream-async-iterator.ts";
export {
  ReadableStreamBYOBReader,
  type ReadableStreamBYOBReaderReadOptions,
  type ReadableStreamBYOBReadResult,
} from "./engine/readable-stream-byob-reader.ts";
export { ReadableStreamBYOBRequest } from "./engine/readable-stream-byob-request.ts";
export { ReadableStreamDefaultController } from "./engine/readable-stream-default-controller.ts";
export {
  ReadableStreamDefaultReader,
  type ReadableStreamReadResult,
} from "./engine/readable-stream-default-reader.ts";
export { TransformStream } from "./engine/transform-stream.ts";
export { TransformStreamDefaultController } from "./engine/transform-stream-default-controller.ts";
export type { Transformer } from "./engine/transformer.ts";
export type { UnderlyingSink } from "./engine/underlying-sink.ts";
export type {
  UnderlyingByteSource,
  UnderlyingDefaultSource,
  UnderlyingSource,
  UnderlyingSourceCancelCallback,
  UnderlyingSourcePullCallback,
  UnderlyingSourceStartCallback,
} from "./engine/underlying-source.ts";
export { WritableStream } from "./engine/writable-stream.ts";
export { WritableStreamDefaultController } from "./engine/writable-stream-default-controller.ts";
export { WritableStreamDefaultWriter } from "./engine/writable-stream-default-writer.ts";
export { type StreamExtensions, streamExtensions } from "./extensions/extensions.ts";
export { ByteLengthQueuingStrategy } from "./standard/byte-length-queuing-strategy.ts";
export { CountQueuingStrategy } from "./standard/count-queuing-strategy.ts";
export type { QueuingStrategy, QueuingStrategyInit, QueuingStrategySize } from "./standard/queuing-strategy.ts";
