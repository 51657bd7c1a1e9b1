import type { Transformer, TransformStreamDefaultController } from "../streams/index.ts";
import type { NumberParser } from "./number-parser.ts";

/**
 * Builds the transformer behind the parsing streams: every chunk goes through `parser`, and `emit` hands each
 * resulting batch (possibly empty) to the readable side. A thrown {@linkcode NumberParseError} errors the stream.
 *
 * @internal Shared by {@linkcode LineToNumberStream} and {@linkcode LineToNumberBatchStream}.
 */
export function parseTransformer<O>(
  parser: NumberParser,
  emit: (numbers: Float64Array, controller: TransformStreamDefaultController<O>) => void,
): Transformer<Uint8Array, O> {
  return {
    transform(chunk, controller) {
      emit(parser.push(chunk), controller);
    },
    flush(controller) {
      emit(parser.end(), controller);
    },
  };
}
