/**
 * `ByteLengthQueuingStrategy`, a queuing strategy that counts the `byteLength` of chunks.
 * @module
 */

import { convertQueuingStrategyInit, type QueuingStrategy, type QueuingStrategyInit } from "./queuing-strategy.ts";
import { hasOwnSlot, makeEnumerable, setFunctionName, setToStringTag } from "./webidl.ts";

const byteLengthSizeFunction = (chunk: ArrayBufferView): number => chunk.byteLength;
setFunctionName(byteLengthSizeFunction, "size");

/**
 * A queuing strategy whose chunk size is the chunk's `byteLength`.
 * @example
 * ```ts
 * const stream = new ReadableStream<Uint8Array>(
 *   { pull: (controller) => controller.enqueue(new Uint8Array(4096)) },
 *   new ByteLengthQueuingStrategy({ highWaterMark: 65536 }), // reads ahead up to 64 KiB
 * );
 * ```
 */
export class ByteLengthQueuingStrategy implements QueuingStrategy<ArrayBufferView> {
  /** @internal [[highWaterMark]] (its name is also the brand: see `isByteLengthQueuingStrategy`) */
  declare private _byteLengthQueuingStrategyHighWaterMark: number;

  constructor(init: QueuingStrategyInit) {
    this._byteLengthQueuingStrategyHighWaterMark = convertQueuingStrategyInit(init, "ByteLengthQueuingStrategy");
  }

  /** The high-water mark given to the constructor. */
  get highWaterMark(): number {
    if (!isByteLengthQueuingStrategy(this)) throw brandCheckError("highWaterMark");
    return this._byteLengthQueuingStrategyHighWaterMark;
  }

  /** Returns the chunk's `byteLength`. */
  get size(): (chunk: ArrayBufferView) => number {
    if (!isByteLengthQueuingStrategy(this)) throw brandCheckError("size");
    return byteLengthSizeFunction;
  }
}

function isByteLengthQueuingStrategy(value: unknown): value is ByteLengthQueuingStrategy {
  return hasOwnSlot(value, "_byteLengthQueuingStrategyHighWaterMark");
}

function brandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot read ByteLengthQueuingStrategy.prototype.${name}: receiver is not a ByteLengthQueuingStrategy`,
  );
}

makeEnumerable(ByteLengthQueuingStrategy, ["highWaterMark", "size"]);
setToStringTag(ByteLengthQueuingStrategy, "ByteLengthQueuingStrategy");
