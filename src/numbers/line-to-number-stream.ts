import { TransformStream, type TransformStreamDefaultController } from "../streams/index.ts";
import { NumberParser, type ParseStats } from "./number-parser.ts";
import { type LineToNumberOptions, parseTransformer } from "./parse-transformer.ts";

/**
 * Turns bytes of newline-separated decimal integers into one number per chunk (the grammar of
 * {@linkcode NumberParser}). Malformed input errors the stream with a {@linkcode NumberParseError}.
 * Where the consumer can take arrays, {@linkcode LineToNumberBatchStream} moves the same numbers with far
 * fewer chunks.
 *
 * @example
 * ```ts
 * const numbers = fromNativeStream(response.body!).pipeThrough(new LineToNumberStream());
 * for await (const n of numbers) console.log(n);
 * ```
 */
export class LineToNumberStream extends TransformStream<Uint8Array, number> {
  readonly #parser: NumberParser;

  /** Creates the stream with a fresh parser. */
  constructor(options: LineToNumberOptions = {}) {
    const parser = new NumberParser();
    super(parseTransformer<number>(parser, enqueueEach, options));
    this.#parser = parser;
  }

  /** What the stream has parsed so far (see {@linkcode ParseStats}). */
  get stats(): ParseStats {
    return this.#parser.stats;
  }
}

function enqueueEach(numbers: Float64Array, controller: TransformStreamDefaultController<number>): void {
  for (let i = 0; i < numbers.length; i++) controller.enqueue(numbers[i]!);
}
