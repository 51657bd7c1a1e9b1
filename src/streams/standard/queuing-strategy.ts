/**
 * Queuing strategy types and the abstract operations that read them (ExtractHighWaterMark,
 * ExtractSizeAlgorithm), plus the WebIDL conversion of the `QueuingStrategy` dictionary.
 * @module
 */

import {
  assertDictionary,
  assertFunction,
  assertRequiredArgument,
  assertRequiredField,
  convertUnrestrictedDouble,
} from "./webidl.ts";

/** Computes the size of a chunk for backpressure purposes. */
export type QueuingStrategySize<T = unknown> = (chunk: T) => number;

/** A queuing strategy: a high-water mark and optionally a chunk size function. */
export interface QueuingStrategy<T = unknown> {
  /** The total size of queued chunks at which backpressure starts. */
  highWaterMark?: number;
  /** The size of one chunk (1 per chunk when absent). */
  size?: QueuingStrategySize<T>;
}

/** The argument of the built-in strategies' constructors. */
export interface QueuingStrategyInit {
  /** The high-water mark of the strategy. */
  highWaterMark: number;
}

/**
 * Converts the `QueuingStrategyInit` argument of a built-in strategy's constructor (`className` names it in
 * errors) and returns its `highWaterMark`.
 */
export function convertQueuingStrategyInit(init: unknown, className: string): number {
  assertRequiredArgument(init, 1, className);
  assertDictionary(init, "First parameter");
  const highWaterMark = (init as Partial<QueuingStrategyInit> | null)?.highWaterMark;
  assertRequiredField(highWaterMark, "highWaterMark", "QueuingStrategyInit");
  return convertUnrestrictedDouble(highWaterMark);
}

/** Internal size algorithm: returns a number for a chunk, or throws. */
export type SizeAlgorithm<T> = (chunk: T) => number;

/** The converted form of a `QueuingStrategy` dictionary. */
export interface ConvertedQueuingStrategy<T> {
  highWaterMark: number | undefined;
  size: QueuingStrategySize<T> | undefined;
}

/** Converts a `QueuingStrategy` dictionary, reading members in WebIDL order (highWaterMark, size). */
export function convertQueuingStrategy<T>(value: unknown, context: string): ConvertedQueuingStrategy<T> {
  assertDictionary(value, context);
  const strategy = value as QueuingStrategy<T> | null | undefined;
  const rawHighWaterMark = strategy?.highWaterMark;
  const highWaterMark = rawHighWaterMark === undefined ? undefined : convertUnrestrictedDouble(rawHighWaterMark);
  const size = strategy?.size;
  if (size !== undefined) assertFunction(size, `${context} has member 'size' that`);
  return {
    highWaterMark,
    size: size === undefined ? undefined : (chunk: T) => convertUnrestrictedDouble(size(chunk)),
  };
}

/** ExtractHighWaterMark: the strategy's high-water mark or `defaultHWM`; throws a `RangeError` when invalid. */
export function extractHighWaterMark<T>(strategy: ConvertedQueuingStrategy<T>, defaultHWM: number): number {
  const { highWaterMark } = strategy;
  if (highWaterMark === undefined) return defaultHWM;
  if (Number.isNaN(highWaterMark) || highWaterMark < 0) {
    throw new RangeError(`Cannot use highWaterMark: expected a non-negative number, got ${highWaterMark}`);
  }
  return highWaterMark;
}

/** The default size algorithm: every chunk counts 1. Shared, so {@link isCountOne} recognises it by identity. */
export function countOne(): number {
  return 1;
}

/** ExtractSizeAlgorithm: the strategy's size function or one that returns 1. */
export function extractSizeAlgorithm<T>(strategy: ConvertedQueuingStrategy<T>): SizeAlgorithm<T> {
  return strategy.size ?? countOne;
}

/** True when `size` is the default algorithm returning 1 (lets hot paths skip the call); false for none. */
export function isCountOne<T>(size: SizeAlgorithm<T> | undefined): boolean {
  return size === (countOne as SizeAlgorithm<T>);
}
