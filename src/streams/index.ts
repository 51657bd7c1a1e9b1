/**
 * drainpipe streams: a WHATWG Streams implementation with no dependencies, plus non-standard,
 * feature-detectable extensions for moving many small chunks cheaply.
 * @module
 */

export { ByteLengthQueuingStrategy } from "./byte-length-queuing-strategy.ts";
export { CountQueuingStrategy } from "./count-queuing-strategy.ts";
export type { QueuingStrategy, QueuingStrategyInit, QueuingStrategySize } from "./queuing-strategy.ts";
export { ReadableByteStreamController } from "./readable-byte-stream-controller.ts";
export {
  ReadableStream,
  type ReadableStreamGetReaderOptions,
  type ReadableStreamIteratorOptions,
  type ReadableWritablePair,
  type StreamPipeOptions,
} from "./readable-stream.ts";
export type { ReadableStreamAsyncIterator } from "./readable-stream-async-iterator.ts";
export { ReadableStreamBYOBReader, type ReadableStreamBYOBReaderReadOptions } from "./readable-stream-byob-reader.ts";
export { ReadableStreamBYOBRequest } from "./readable-stream-byob-request.ts";
export { ReadableStreamDefaultController } from "./readable-stream-default-controller.ts";
export { ReadableStreamDefaultReader, type ReadableStreamReadResult } from "./readable-stream-default-reader.ts";
export { TransformStream } from "./transform-stream.ts";
export { TransformStreamDefaultController } from "./transform-stream-default-controller.ts";
export type { Transformer } from "./transformer.ts";
export type {
  UnderlyingByteSource,
  UnderlyingDefaultSource,
  UnderlyingSource,
  UnderlyingSourceCancelCallback,
  UnderlyingSourcePullCallback,
  UnderlyingSourceStartCallback,
} from "./underlying-source.ts";
export type { UnderlyingSink } from "./underlying-sink.ts";
export { WritableStream } from "./writable-stream.ts";
export { WritableStreamDefaultController } from "./writable-stream-default-controller.ts";
export { WritableStreamDefaultWriter } from "./writable-stream-default-writer.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_CHUNKS, type ReadManyOptions, type ReadManyResult } from "./read-many.ts";
export { streamExtensions, type StreamExtensions } from "./extensions.ts";
export { BufferPool, DEFAULT_MAX_FREE_BUFFERS, type BufferPoolOptions } from "./buffer-pool.ts";
export { collectBytes } from "./collect-bytes.ts";
export { fromNativeStream, type FromNativeOptions } from "./from-native.ts";
export {
  DEFAULT_CHUNK_SIZE,
  sizedByteStream,
  type FillResult,
  type SizedByteSource,
  type SizedByteStreamOptions,
} from "./sized-byte-stream.ts";
export { toFixedLengthNativeStream, toNativeStream } from "./to-native.ts";
