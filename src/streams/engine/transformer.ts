/**
 * The `Transformer` dictionary: its types and its WebIDL conversion.
 * @module
 */

import { type AnyFunction, assertDictionary, assertFunction } from "../standard/webidl.ts";
import type { TransformStreamDefaultController } from "./transform-stream-default-controller.ts";

/** Describes how a `TransformStream` turns written chunks into readable ones. */
export interface Transformer<I = unknown, O = unknown> {
  /** Sets up the transformer; may return a promise. */
  start?: (controller: TransformStreamDefaultController<O>) => unknown;
  /** Transforms one chunk, enqueuing any number of outputs. */
  transform?: (chunk: I, controller: TransformStreamDefaultController<O>) => void | PromiseLike<void>;
  /** Called after the last chunk, before the readable side closes. */
  flush?: (controller: TransformStreamDefaultController<O>) => void | PromiseLike<void>;
  /** Called when the readable side is cancelled or the writable side aborted. */
  cancel?: (reason?: unknown) => void | PromiseLike<void>;
  /** Reserved; must be undefined. */
  readableType?: undefined;
  /** Reserved; must be undefined. */
  writableType?: undefined;
}

/** The converted `Transformer` dictionary. */
export interface ConvertedTransformer {
  cancel: AnyFunction | undefined;
  flush: AnyFunction | undefined;
  readableType: unknown;
  start: AnyFunction | undefined;
  transform: AnyFunction | undefined;
  writableType: unknown;
}

/** Converts a `Transformer` dictionary (members in WebIDL order). */
export function convertTransformer(value: unknown, context: string): ConvertedTransformer {
  assertDictionary(value, context);
  const transformer = value as Record<string, unknown> | null | undefined;
  const cancel = transformer?.cancel;
  if (cancel !== undefined) assertFunction(cancel, `${context} has member 'cancel' that`);
  const flush = transformer?.flush;
  if (flush !== undefined) assertFunction(flush, `${context} has member 'flush' that`);
  const readableType = transformer?.readableType;
  const start = transformer?.start;
  if (start !== undefined) assertFunction(start, `${context} has member 'start' that`);
  const transform = transformer?.transform;
  if (transform !== undefined) assertFunction(transform, `${context} has member 'transform' that`);
  const writableType = transformer?.writableType;
  return { cancel, flush, readableType, start, transform, writableType };
}
