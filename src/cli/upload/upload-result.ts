/**
 * What an upload did, one POST or a session: the manifest, the bytes sent, the time and the rates, as `--json`
 * prints them, and the throughput line printed after the manifest's summary.
 *
 * @module
 */
import type { Manifest } from "../../files/manifest.ts";
import {
  formatByteRate,
  formatBytes,
  formatCount,
  formatCountRate,
  formatSeconds,
  MIN_SECONDS,
  plural,
  roundSeconds,
} from "../format.ts";

/** What one upload did. */
export interface UploadResult {
  /** The local file's path. */
  file: string;
  /** The worker's manifest of the stored file. */
  manifest: Manifest;
  /** Bytes sent. */
  bytes: number;
  /** Seconds from the request's start to the manifest's arrival, to the millisecond. */
  seconds: number;
  /** Bytes sent per second, rounded. */
  bytesPerSecond: number;
  /** Numbers stored per second, rounded. */
  numbersPerSecond: number;
}

/** What an upload did, one POST or a session (which adds its segments and its id). */
export type UploadOutcome = UploadResult & { segments?: number; sentSegments?: number; sessionId?: string };

/**
 * What an upload of `bytes` did in `seconds`: seconds to the millisecond, rates rounded.
 *
 * @example
 * ```ts
 * import type { Manifest } from "../../files/manifest.ts";
 * declare const manifest: Manifest; // of 1,000,000 numbers
 * uploadResult("primes.txt", manifest, 8_245_905, 0.81).bytesPerSecond; // 10_180_130
 * ```
 */
export function uploadResult(file: string, manifest: Manifest, bytes: number, seconds: number): UploadResult {
  const elapsed = Math.max(seconds, MIN_SECONDS);
  return {
    file,
    manifest,
    bytes,
    seconds: roundSeconds(elapsed),
    bytesPerSecond: Math.round(bytes / elapsed),
    numbersPerSecond: Math.round(manifest.totals.numbers / elapsed),
  };
}

/**
 * The throughput line of an upload.
 *
 * @example
 * ```ts
 * declare const result: UploadResult;
 * describeThroughput(result); // "sent 8.25 MB in 810ms: 10.2 MB/s, 1,234,568 numbers/s"
 * ```
 */
export function describeThroughput(result: UploadOutcome): string {
  const { bytes, seconds, manifest } = result;
  const numbers = formatCountRate(manifest.totals.numbers, seconds, "numbers");
  const how =
    result.segments === undefined
      ? ""
      : result.sentSegments === result.segments
        ? ` as ${plural(result.segments, "segment")}`
        : ` as ${formatCount(result.sentSegments ?? 0)} of ${plural(result.segments, "segment")} ` +
          "(the others were there)";
  return `sent ${formatBytes(bytes)}${how} in ${formatSeconds(seconds)}: ${formatByteRate(bytes, seconds)}, ${numbers}`;
}
