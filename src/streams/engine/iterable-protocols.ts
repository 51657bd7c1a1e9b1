/**
 * The conversion protocols of the iterable-streams API (the WinterTC "Iterable Streams" proposal, `node:stream/iter`
 * in Node 26): registered symbols, so any implementation of the API finds them on drainpipe's objects.
 * @module
 */

/**
 * The key of the method that turns an object into an async iterable of `Uint8Array[]` batches. drainpipe's
 * `ReadableStream` has it, so `from(stream)`, `pull(stream, …)`, `bytes(stream)` and `pipeTo(stream, …)` of the
 * iterable-streams API read whole batches.
 * @example
 * ```ts
 * toAsyncStreamable === Symbol.for("Stream.toAsyncStreamable"); // true
 * ```
 */
export const toAsyncStreamable: unique symbol = Symbol.for("Stream.toAsyncStreamable") as never;

/**
 * The key of a writer's method that answers when it can take more: `null` when it never will (ended or failed),
 * otherwise a promise for `true` once it has room (at once when it has room now), or `false` when it ends or fails
 * first. The API's `ondrain(writer)` calls it.
 * @example
 * ```ts
 * drainableProtocol === Symbol.for("Stream.drainableProtocol"); // true
 * ```
 */
export const drainableProtocol: unique symbol = Symbol.for("Stream.drainableProtocol") as never;
