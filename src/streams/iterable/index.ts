/**
 * drainpipe's bridges to the iterable-streams API (the WinterTC "Iterable Streams" proposal; `node:stream/iter` in
 * Node 26 behind `--experimental-stream-iter`), where a stream is an async iterable of `Uint8Array[]` batches and a
 * writer is any object with `write`/`writev`/`end`/`fail`. Batches are what drainpipe's draining reads and coalesced
 * writes already move, so they cross whole:
 *
 * - drainpipe's `ReadableStream` has `[Symbol.for("Stream.toAsyncStreamable")]()` (one `readMany` per batch), so the
 *   API's `from`, `pull`, `bytes` and `pipeTo` read it by batches (no import needed);
 * - {@link toWriter} writes into a web `WritableStream`, a batch at a time into a sink with `writev`;
 * - {@link fromStreamable} reads any streamable as a drainpipe byte stream, a whole batch per pull.
 *
 * No dependency on Node or on any platform API beyond `TextEncoder`.
 * @module
 */

export { drainableProtocol, toAsyncStreamable } from "../engine/iterable-protocols.ts";
export { fromStreamable, type Streamable } from "./from-streamable.ts";
export { toWriter } from "./to-writer.ts";
export type { Writer, WriterChunk, WriterOptions } from "./writer.ts";
