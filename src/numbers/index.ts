/**
 * Numbers as newline-separated decimal text: parsing bytes into numbers, encoding numbers into bytes, and
 * generating the primes that make test inputs.
 *
 * @module
 */

export { type CanonicalRun, canonicalLineValue, type LineMarks, scanCanonicalLines } from "./canonical-lines.ts";
export { CHUNK_RUN, type LineRunKind, LineRuns, NORMALIZED_RUN, NUMBER_RUN } from "./line-runs.ts";
export { LineToNumberBatchStream } from "./line-to-number-batch-stream.ts";
export type { LineToNumberOptions } from "./line-to-number-options.ts";
export { LineToNumberStream } from "./line-to-number-stream.ts";
export { type NormalizedRun, normalizeLines } from "./normalize-lines.ts";
export { encodedLineLength, encodeNumbers, encodeNumbersInto } from "./number-encoder.ts";
export { NumberParseError, type NumberParseErrorInit, type NumberParseErrorReason } from "./number-parse-error.ts";
export { NumberParser, type ParseStats } from "./number-parser.ts";
export { primeBatchStream } from "./prime-batch-stream.ts";
export {
  DEFAULT_PRIME_BATCH_SIZE,
  MAX_PRIME_COUNT,
  nthPrimeUpperBound,
  type PrimeBatchOptions,
  primeBatches,
} from "./prime-batches.ts";
export { primeStream } from "./prime-stream.ts";
export { DEFAULT_PRIME_TEXT_CHUNK_BYTES, type PrimeTextStreamOptions, primeTextStream } from "./prime-text-stream.ts";
