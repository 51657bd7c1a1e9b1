/** Options of {@linkcode LineToNumberStream} and {@linkcode LineToNumberBatchStream}. */
export interface LineToNumberOptions {
  /**
   * Called with every input chunk once it has been parsed; the parser keeps no reference to it. Lets a byte
   * source recycle its buffers (e.g. `BufferPool.release` with `fromNativeStream(body, { pool })`).
   *
   * @example
   * ```ts
   * declare const request: Request;
   * const pool = new BufferPool({ bufferSize: 65536 });
   * const numbers = fromNativeStream(request.body!, { pool })
   *   .pipeThrough(new LineToNumberStream({ releaseChunk: (chunk) => pool.release(chunk) }));
   * ```
   */
  releaseChunk?: (chunk: Uint8Array) => void;
}
