/**
 * The benchmark input: the first N primes as newline-separated text, made by `primeTextStream` and cached under
 * `bench/.cache/` (ignored by git), since generating 10 M primes takes a few seconds.
 *
 * @module
 */
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { writePrimes } from "../../src/cli/commands/primes.ts";
import { primeTextStream } from "../../src/numbers/prime-text-stream.ts";

/** The directory of cached inputs (`bench/.cache`, listed in `.gitignore`). */
export const CACHE_DIR = resolve(import.meta.dirname, "../.cache");

/**
 * The first `count` primes, one per line, as bytes: read from `bench/.cache/primes-<count>.txt`, generated and
 * cached there when missing.
 *
 * @example
 * ```ts
 * const text = await primesText(10_000_000); // about 89 MB
 * ```
 */
export async function primesText(count: number): Promise<Uint8Array<ArrayBuffer>> {
  const path = resolve(CACHE_DIR, `primes-${count}.txt`);
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const bytes = new Uint8Array(await new Response(primeTextStream(count)).arrayBuffer());
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, path);
  return bytes;
}

/** Prime counts whose text is cached, with a size their text surely exceeds. */
const SIZES = [
  { count: 200_000, exceeds: 1_300_000 },
  { count: 1_000_000, exceeds: 7_000_000 },
  { count: 11_200_000, exceeds: 105_000_000 },
];

/**
 * The first primes as text, cut to at most `maxBytes` at the last line break that fits, so the result is
 * whole lines (`maxBytes` up to 105 MB).
 *
 * @throws {RangeError} when `maxBytes` is larger than the largest cached input.
 *
 * @example
 * ```ts
 * const body = await primesTextOfSize(100_000_000); // 100 MB of whole lines: the first ~10.7 M primes
 * ```
 */
export async function primesTextOfSize(maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const size = SIZES.find((candidate) => candidate.exceeds >= maxBytes);
  if (!size)
    throw new RangeError(`Cannot make ${maxBytes} bytes of primes: at most ${SIZES.at(-1)!.exceeds} are cached`);
  const text = await primesText(size.count);
  const end = text.lastIndexOf(0x0a, maxBytes - 1) + 1;
  return text.slice(0, end);
}

/** A primes file on disk, as {@linkcode primesFile} returns it. */
export interface PrimesFile {
  /** Its absolute path: `bench/.cache/primes-<count>.txt`. */
  path: string;
  /** Its size in bytes. */
  size: number;
}

/**
 * The first `count` primes, one per line, as a file on disk (for inputs too big to hold in memory, such as the
 * 1.04 GB of the first 100 M primes): `bench/.cache/primes-<count>.txt`, written by the CLI's `primes` command
 * code when missing (under a temporary name first, so an interrupted run leaves no truncated file behind).
 *
 * @example
 * ```ts
 * const { path, size } = await primesFile(100_000_000); // 1,042,636,916 bytes, written once
 * ```
 */
export async function primesFile(count: number): Promise<PrimesFile> {
  const path = resolve(CACHE_DIR, `primes-${count}.txt`);
  const size = await stat(path).then(
    (info) => info.size,
    () => undefined,
  );
  if (size !== undefined) return { path, size };
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writePrimes(count, partial, { progress: false });
  await rename(partial, path);
  return { path, size: (await stat(path)).size };
}
