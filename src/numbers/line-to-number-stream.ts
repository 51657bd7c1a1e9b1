import { transformStreamDefaultControllerEnqueueEach } from "../streams/engine/fast-paths/enqueue-each.ts";
import { TransformStream } from "../streams/engine/transform-stream.ts";
import type { Transformer } from "../streams/engine/transformer.ts";
import type { LineToNumberOptions } from "./line-to-number-options.ts";
import { NumberParser, type ParseStats } from "./number-parser.ts";

/**
 * Turns bytes of newline-separated decimal integers into one number per chunk (the grammar of
 * {@linkcode NumberParser}). Malformed input errors the stream with a {@linkcode NumberParseError}.
 * Where the consumer can take arrays, {@linkcode LineToNumberBatchStream} moves the same numbers with far
 * fewer chunks.
 *
 * @example
 * ```ts
 * declare const response: Response;
 * const numbers = fromNativeStream(response.body!).pipeThrough(new LineToNumberStream());
 * for await (const n of numbers) console.log(n);
 * ```
 */
export class LineToNumberStream extends TransformStream<Uint8Array, number> {
  readonly #parser: NumberParser;

  /** Creates the stream with a fresh parser. */
  constructor(options: LineToNumberOptions = {}) {
    const parser = new NumberParser();
    super(perNumberTransformer(parser, options));
    this.#parser = parser;
  }

  /** What the stream has parsed so far (see {@linkcode ParseStats}). */
  get stats(): ParseStats {
    return this.#parser.stats;
  }
}

/**
 * The transformer: each chunk goes through `parser`, and each number it completes is enqueued on its own, as
 * `controller.enqueue` would (through drainpipe's {@linkcode transformStreamDefaultControllerEnqueueEach}, which
 * appends the numbers to the readable side's queue in one step once each enqueue would only append).
 */
function perNumberTransformer(
  parser: NumberParser,
  { releaseChunk }: LineToNumberOptions,
): Transformer<Uint8Array, number> {
  return {
    transform(chunk, controller) {
      const numbers = parser.pushView(chunk);
      transformStreamDefaultControllerEnqueueEach(controller, numbers, 0, numbers.length);
      releaseChunk?.(chunk);
    },
    flush(controller) {
      for (const value of parser.end()) controller.enqueue(value);
    },
  };
}
