/**
 * What the tests that run one scenario on drainpipe's streams and on Node's own share: the two sets of classes, and
 * how a rejection reason is logged so that the two logs compare.
 * @module
 */

import * as drainpipe from "../../src/streams/index.ts";

/** The classes a scenario runs on: drainpipe's, or Node's own. */
export interface Streams {
  ReadableStream: typeof globalThis.ReadableStream;
  WritableStream: typeof globalThis.WritableStream;
  TransformStream: typeof globalThis.TransformStream;
}

/** drainpipe's classes, typed as the platform's. */
export const ours = drainpipe as unknown as Streams;

/** Node's own classes. */
export const native: Streams = globalThis;

/** A reason as logged: the messages of the scenario's own errors, the names of the streams' (their wording differs). */
export function reasonOf(reason: unknown): string {
  if (reason instanceof TypeError) return "TypeError";
  return reason instanceof Error ? reason.message : String(reason);
}
