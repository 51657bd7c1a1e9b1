import { TransformStream, type TransformStreamDefaultController } from "../streams/index.ts";
import { NumberParser, type ParseStats } from "./number-parser.ts";
import { type LineToNumberOptions, parseTransformer } from "./parse-transformer.ts";

/**
 * Turns bytes of newline-separated decimal integers into one `Float64Array` per input chunk, holding the numbers
 * of the lines that chunk completes (the grammar of {@linkcode NumberParser}); chunks that complete no line
 * produce nothing. Malformed input errors the stream with a {@linkcode NumberParseError}.
 *
 * @example
 * ```ts
 * let sum = 0;
 * for await (const batch of fromNativeStream(response.body!).pipeThrough(new LineToNumberBatchStream())) {
 *   for (const n of batch) sum += n;
 * }
 * ```
 */
export class LineToNumberBatchStream extends TransformStream<Uint8Array, Float64Array> {
  readonly #parser: NumberParser;

  /** Creates the stream with a fresh parser. */
  constructor(options: LineToNumberOptions = {}) {
    const parser = new NumberParser();
    super(parseTransformer<Float64Array>(parser, enqueueBatch, options));
    this.#parser = parser;
  }

  /** What the stream has parsed so far (see {@linkcode ParseStats}). */
  get stats(): ParseStats {
    return this.#parser.stats;
  }
}

function enqueueBatch(numbers: Float64Array, controller: TransformStreamDefaultController<Float64Array>): void {
  if (numbers.length > 0) controller.enqueue(numbers.slice());
}
