import { basename } from "node:path";
import { sanitizeName } from "../files/file-name.ts";
import { UsageError } from "./cli-error.ts";

/**
 * The name a file is stored under when `upload` is given no `--name`: its base name made valid by `sanitizeName`
 * (every run of characters outside `A–Z a–z 0–9 . _ -` replaced by `-`, runs of dots shortened to one, leading
 * characters other than letters and digits dropped, cut to 128 characters).
 *
 * @throws {UsageError} when nothing usable is left (say, for `...`).
 *
 * @example
 * ```ts
 * defaultName("/data/first 1e6 primes.txt"); // "first-1e6-primes.txt"
 * defaultName("./.hidden..txt");             // "hidden.txt"
 * ```
 */
export function defaultName(path: string): string {
  const name = sanitizeName(basename(path));
  if (name === null) throw new UsageError(`Cannot derive a file name from "${path}": pass one with --name`);
  return name;
}
