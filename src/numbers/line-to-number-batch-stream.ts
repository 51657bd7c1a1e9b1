import { TransformStream } from "../streams/engine/transform-stream.ts";
import type { Transformer } from "../streams/engine/transformer.ts";
import type { LineToNumberOptions } from "./line-to-number-options.ts";
import { NumberParser, type ParseStats } from "./number-parser.ts";

/**
 * Turns bytes of newline-separated decimal integers into one `Float64Array` per input chunk, holding the numbers
 * of the lines that chunk completes (the grammar of {@linkcode NumberParser}); chunks that complete no line
 * produce nothing. Malformed input errors the stream with a {@linkcode NumberParseError}.
 *
 * @example
 * ```ts
 * declare const response: Response;
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
    super(batchTransformer(parser, options));
    this.#parser = parser;
  }

  /** What the stream has parsed so far (see {@linkcode ParseStats}). */
  get stats(): ParseStats {
    return this.#parser.stats;
  }
}

/** The transformer: each chunk goes through `parser`, and the numbers it completes are enqueued as one copy. */
function batchTransformer(
  parser: NumberParser,
  { releaseChunk }: LineToNumberOptions,
): Transformer<Uint8Array, Float64Array> {
  return {
    transform(chunk, controller) {
      const numbers = parser.pushView(chunk);
      if (numbers.length > 0) controller.enqueue(numbers.slice());
      releaseChunk?.(chunk);
    },
    flush(controller) {
      const last = parser.end();
      if (last.length > 0) controller.enqueue(last);
    },
  };
}
