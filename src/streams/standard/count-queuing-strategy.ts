/**
 * `CountQueuingStrategy`, a queuing strategy that counts chunks.
 * @module
 */

import { convertQueuingStrategyInit, type QueuingStrategy, type QueuingStrategyInit } from "./queuing-strategy.ts";
import { hasOwnSlot, makeEnumerable, setFunctionName, setToStringTag } from "./webidl.ts";

const countSizeFunction = (): number => 1;
setFunctionName(countSizeFunction, "size");

/**
 * A queuing strategy in which every chunk has size 1.
 * @example
 * ```ts
 * let n = 0;
 * const stream = new ReadableStream<number>(
 *   { pull: (controller) => controller.enqueue(n++) },
 *   new CountQueuingStrategy({ highWaterMark: 16 }), // reads ahead up to 16 chunks
 * );
 * ```
 */
export class CountQueuingStrategy implements QueuingStrategy<unknown> {
  /** @internal [[highWaterMark]] (its name is also the brand: see `isCountQueuingStrategy`) */
  declare private _countQueuingStrategyHighWaterMark: number;

  constructor(init: QueuingStrategyInit) {
    this._countQueuingStrategyHighWaterMark = convertQueuingStrategyInit(init, "CountQueuingStrategy");
  }

  /** The high-water mark given to the constructor. */
  get highWaterMark(): number {
    if (!isCountQueuingStrategy(this)) throw brandCheckError("highWaterMark");
    return this._countQueuingStrategyHighWaterMark;
  }

  /** Returns 1 for every chunk. */
  get size(): (chunk?: unknown) => number {
    if (!isCountQueuingStrategy(this)) throw brandCheckError("size");
    return countSizeFunction;
  }
}

function isCountQueuingStrategy(value: unknown): value is CountQueuingStrategy {
  return hasOwnSlot(value, "_countQueuingStrategyHighWaterMark");
}

function brandCheckError(name: string): TypeError {
  return new TypeError(`Cannot read CountQueuingStrategy.prototype.${name}: receiver is not a CountQueuingStrategy`);
}

makeEnumerable(CountQueuingStrategy, ["highWaterMark", "size"]);
setToStringTag(CountQueuingStrategy, "CountQueuingStrategy");
