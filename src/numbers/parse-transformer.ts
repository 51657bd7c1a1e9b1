import type { Transformer, TransformStreamDefaultController } from "../streams/index.ts";
import type { NumberParser } from "./number-parser.ts";

/** Options of the parsing streams. */
export interface LineToNumberOptions {
  /**
   * Called with every input chunk once it has been parsed; the parser keeps no reference to it. Lets a byte
   * source recycle its buffers (e.g. `BufferPool.release` with `fromNativeStream(body, { pool })`).
   */
  releaseChunk?: (chunk: Uint8Array) => void;
}

/**
 * Builds the transformer behind the parsing streams: every chunk goes through `parser`, and `emit` hands each
 * resulting batch (possibly empty) to the readable side. The batch is a view of the parser's buffer
 * ({@linkcode NumberParser.pushView}): `emit` must copy what it keeps. A thrown {@linkcode NumberParseError}
 * errors the stream.
 *
 * @internal Shared by {@linkcode LineToNumberStream} and {@linkcode LineToNumberBatchStream}.
 */
export function parseTransformer<O>(
  parser: NumberParser,
  emit: (numbers: Float64Array, controller: TransformStreamDefaultController<O>) => void,
  options: LineToNumberOptions = {},
): Transformer<Uint8Array, O> {
  const { releaseChunk } = options;
  return {
    transform(chunk, controller) {
      emit(parser.pushView(chunk), controller);
      releaseChunk?.(chunk);
    },
    flush(controller) {
      emit(parser.end(), controller);
    },
  };
}
