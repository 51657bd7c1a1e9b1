/**
 * The file protocol: what makes a stored file all-or-nothing. Names, the manifest written last under a
 * compare-and-swap, reading it back, the catalog of complete files, and {@link storeNumbers}, which runs one
 * upload from a stream of numbers to a published manifest ({@link storeLines} from a stream of bytes of lines).
 *
 * @module
 */
export { FileCatalog, type FilePage, type FileSummary } from "./file-catalog.ts";
export { assertValidName, InvalidNameError, MAX_NAME_LENGTH } from "./file-name.ts";
export {
  LineIndexMissingError,
  type LinePiece,
  type LinesRead,
  linePieces,
  linePiecesCalls,
  MAX_LINES_COUNT,
  NotSortedError,
  readLines,
  type SearchResult,
  searchValue,
} from "./line-reads.ts";
export {
  buildManifest,
  MANIFEST_VERSION,
  type Manifest,
  type ManifestSource,
  parseManifest,
  versionKeys,
} from "./manifest.ts";
export { type PartSlice, sliceParts, wholeParts } from "./part-slices.ts";
export { type ManifestVersion, readManifest, readManifestVersion } from "./read-manifest.ts";
export { RecordFormatError } from "./record-format.ts";
export {
  type StoreLinesOptions,
  StoreNumbersError,
  type StoreNumbersOptions,
  storeLines,
  storeNumbers,
} from "./store-numbers.ts";
