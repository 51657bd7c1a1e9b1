/**
 * Forward declarations of the platform types that drainpipe's published declarations name: the platform's own
 * `ReadableStream` and `WritableStream` (what the adapters, stores and file reads hand over and take) and
 * `AbortSignal` (`pipeTo`'s `signal`, a writable controller's `signal`). Each merges with the full declaration
 * where the consumer's types have one (the DOM library, `@types/node`, `@cloudflare/workers-types`), and stands
 * in, empty, where they have none, so the declarations compile under `lib: ["es2022"]` alone. The modules that
 * name these types import this one.
 *
 * @module
 */

declare global {
  // biome-ignore lint/suspicious/noExplicitAny: the default every platform's declaration has; merging needs it.
  interface ReadableStream<R = any> {}
  // biome-ignore lint/suspicious/noExplicitAny: the default every platform's declaration has; merging needs it.
  interface WritableStream<W = any> {}
  interface AbortSignal {}
}

export {};
