/**
 * The `UnderlyingSink` dictionary: its types and its WebIDL conversion, plus drainpipe's `writev` extension.
 * @module
 */

import { type AnyFunction, assertDictionary, assertFunction } from "../standard/webidl.ts";
import type { WritableStreamDefaultController } from "./writable-stream-default-controller.ts";

/** An underlying sink: where a `WritableStream`'s chunks go. */
export interface UnderlyingSink<W = unknown> {
  /** Sets up the sink; may return a promise. */
  start?: (controller: WritableStreamDefaultController) => unknown;
  /** Writes one chunk; may return a promise. */
  write?: (chunk: W, controller: WritableStreamDefaultController) => void | PromiseLike<void>;
  /**
   * Non-standard (drainpipe): writes several queued chunks at once, in order. Called instead of `write`
   * whenever more than one chunk is queued when the sink becomes ready; a sink without `write` also gets
   * single chunks this way (as a one-element array).
   */
  writev?: (chunks: W[], controller: WritableStreamDefaultController) => void | PromiseLike<void>;
  /** Finishes after all writes; may return a promise. */
  close?: () => void | PromiseLike<void>;
  /** Discards the sink after an abort. */
  abort?: (reason?: unknown) => void | PromiseLike<void>;
  /** Reserved; must be undefined. */
  type?: undefined;
}

/** The converted `UnderlyingSink` dictionary. */
export interface ConvertedUnderlyingSink {
  abort: AnyFunction | undefined;
  close: AnyFunction | undefined;
  start: AnyFunction | undefined;
  type: unknown;
  write: AnyFunction | undefined;
  writev: AnyFunction | undefined;
}

/** Converts an `UnderlyingSink` dictionary (members in WebIDL order; `writev` last). */
export function convertUnderlyingSink(value: unknown, context: string): ConvertedUnderlyingSink {
  assertDictionary(value, context);
  const sink = value as Record<string, unknown> | null | undefined;
  const abort = sink?.abort;
  if (abort !== undefined) assertFunction(abort, `${context} has member 'abort' that`);
  const close = sink?.close;
  if (close !== undefined) assertFunction(close, `${context} has member 'close' that`);
  const start = sink?.start;
  if (start !== undefined) assertFunction(start, `${context} has member 'start' that`);
  const type = sink?.type;
  const write = sink?.write;
  if (write !== undefined) assertFunction(write, `${context} has member 'write' that`);
  const writev = sink?.writev;
  if (writev !== undefined) assertFunction(writev, `${context} has member 'writev' that`);
  return { abort, close, start, type, write, writev };
}
