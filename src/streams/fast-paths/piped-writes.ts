/**
 * drainpipe's test for the shortcut taken while a pipe writes into a transform stream (not in the standard).
 * @module
 */

import type { TransformStream } from "../standard/transform-stream.ts";

/**
 * Whether a pipe writes into `stream`'s writable side: nobody else can then observe when its writes settle, so a
 * write that completed synchronously may be finished at once.
 */
export function isWritableSidePiped<I, O>(stream: TransformStream<I, O>): boolean {
  return stream._writable._writableStreamController._synchronousCompletion;
}
