/** The smallest accepted `maxPartBytes` (1 KiB): every line (at most 17 bytes) always fits in a part. */
export const MIN_MAX_PART_BYTES = 1024;
/** The largest accepted `maxPartBytes` (1 GiB); larger parts are written as multipart uploads. */
export const MAX_MAX_PART_BYTES = 1024 * 1024 * 1024;
/** The default size limit of one part: 10 MiB. */
export const DEFAULT_MAX_PART_BYTES = 10 * 1024 * 1024;

/** A `maxPartBytes` value was malformed or outside [{@linkcode MIN_MAX_PART_BYTES}, {@linkcode MAX_MAX_PART_BYTES}]. */
export class PartSizeError extends RangeError {
  override name = "PartSizeError";
}

/**
 * Parses and checks a part size limit given as text (a query parameter or a variable). `undefined` or an
 * empty string gives `fallback`.
 *
 * @example
 * ```ts
 * parseMaxPartBytes("1048576"); // 1048576
 * parseMaxPartBytes(undefined); // 10485760
 * parseMaxPartBytes("12");      // throws PartSizeError
 * ```
 */
export function parseMaxPartBytes(text: string | null | undefined, fallback = DEFAULT_MAX_PART_BYTES): number {
  if (text === undefined || text === null || text === "") return checkMaxPartBytes(fallback);
  if (!/^[0-9]+$/.test(text)) {
    throw new PartSizeError(`Cannot use maxPartBytes "${text}": expected a whole number of bytes`);
  }
  return checkMaxPartBytes(Number(text));
}

/** Checks that `value` is a whole number of bytes within the accepted range and returns it. */
export function checkMaxPartBytes(value: number): number {
  if (!Number.isSafeInteger(value) || value < MIN_MAX_PART_BYTES || value > MAX_MAX_PART_BYTES) {
    throw new PartSizeError(
      `Cannot use maxPartBytes ${value}: expected a whole number from ${MIN_MAX_PART_BYTES} to ${MAX_MAX_PART_BYTES}`,
    );
  }
  return value;
}
