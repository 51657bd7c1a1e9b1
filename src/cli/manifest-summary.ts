import type { Manifest } from "../files/manifest.ts";
import type { PartRecord } from "../split/part-splitter.ts";
import { formatBytes, formatCount, plural } from "./format.ts";

/** How many parts are listed one by one before the list is shortened to its first and last two. */
const LISTED_PARTS = 4;

/**
 * A manifest in a few lines of text: totals, source, and the parts (the first and last two when there are
 * many).
 *
 * @example
 * ```ts
 * import type { Manifest } from "../files/manifest.ts";
 * import { printLines } from "./output.ts";
 * declare const manifest: Manifest;
 * printLines(summarizeManifest(manifest));
 * // stored "primes": 1,000,000 numbers, 8.25 MB in 1 part (at most 10,485,760 bytes each)
 * // …
 * ```
 */
export function summarizeManifest(manifest: Manifest): string[] {
  const { totals } = manifest;
  const lines = [
    `stored "${manifest.name}": ${formatCount(totals.numbers)} numbers, ` +
      `${formatBytes(totals.bytes)} in ${plural(totals.parts, "part")} ` +
      `(at most ${formatCount(manifest.maxPartBytes)} bytes each)`,
    `  upload id ${manifest.uploadId}, created ${manifest.createdAt}`,
    `  source: ${describeSource(manifest.source)}`,
  ];
  const { parts } = manifest;
  const shown = parts.length > LISTED_PARTS ? [...parts.slice(0, 2), undefined, ...parts.slice(-2)] : parts;
  for (const part of shown) {
    lines.push(part === undefined ? `  … ${plural(parts.length - 4, "more part")}` : describePart(part));
  }
  return lines;
}

function describeSource(source: Manifest["source"]): string {
  if (source.kind === "primes") return `the first ${formatCount(source.count)} primes, generated in the worker`;
  const form = source.canonical ? "canonical (stored byte for byte)" : "not canonical (stored normalised)";
  return `upload of ${formatBytes(source.bytes)}, ${plural(source.lines, "line")}, ${form}`;
}

function describePart(part: PartRecord): string {
  const range = `(${part.first} … ${part.last})`;
  return `  part ${part.index}: ${plural(part.numbers, "number")} ${range}, ${formatBytes(part.bytes)}`;
}
