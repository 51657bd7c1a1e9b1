/**
 * The split layer: numbers, or bytes of lines (copied as they are when already canonical), rotated into
 * newline-aligned parts of at most `maxPartBytes`, each written to an `ObjectStore` as it fills (one `put`, or a
 * multipart upload of equal chunks), with a bounded number of writes in flight, and the object keys every part and
 * manifest lives under.
 *
 * @module
 */
export { filePrefix, manifestKey, newUploadId, partKey, uploadIdOfKey, uploadPrefix } from "./object-keys.ts";
export {
  checkMaxPartBytes,
  DEFAULT_MAX_PART_BYTES,
  MAX_MAX_PART_BYTES,
  MIN_MAX_PART_BYTES,
  PartSizeError,
  parseMaxPartBytes,
} from "./part-size.ts";
export {
  DEFAULT_CHUNK_BYTES,
  DEFAULT_MAX_IN_FLIGHT,
  MAX_PARTS,
  MIN_CHUNK_BYTES,
  NumberLimitError,
  PartLimitError,
  type PartRecord,
  PartSplitter,
  type PartSplitterOptions,
} from "./part-splitter.ts";
export {
  DEFAULT_SPLIT_LINES_HIGH_WATER_MARK,
  type SplitLinesOptions,
  SplitLinesWritableStream,
} from "./split-lines-writable-stream.ts";
export { DEFAULT_SPLIT_HIGH_WATER_MARK, type NumberChunk, SplitWritableStream } from "./split-writable-stream.ts";
