/** The longest accepted file name, in characters. */
export const MAX_NAME_LENGTH = 128;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A file name was rejected. Names are 1–128 characters of `A–Z a–z 0–9 . _ -`, start with a letter or digit
 * and never contain `..`, so a name can never reach another name's objects.
 */
export class InvalidNameError extends Error {
  override name = "InvalidNameError";
  /** The rejected name. */
  readonly value: string;

  /** Builds the error for `value` with the reason it was rejected. */
  constructor(value: string, reason: string) {
    super(`Cannot use file name ${JSON.stringify(value.slice(0, MAX_NAME_LENGTH + 8))}: ${reason}`);
    this.value = value;
  }
}

/**
 * Checks that `name` is a valid file name and returns it.
 *
 * @example
 * ```ts
 * assertValidName("primes-1e6.txt"); // "primes-1e6.txt"
 * assertValidName("../etc");         // throws InvalidNameError
 * ```
 */
export function assertValidName(name: string): string {
  if (name.length === 0) throw new InvalidNameError(name, "it is empty");
  if (name.length > MAX_NAME_LENGTH) {
    throw new InvalidNameError(name, `it has ${name.length} characters, at most ${MAX_NAME_LENGTH} are allowed`);
  }
  if (!NAME_PATTERN.test(name)) {
    throw new InvalidNameError(name, "use letters, digits, '.', '_' and '-', starting with a letter or digit");
  }
  if (name.includes("..")) throw new InvalidNameError(name, "it contains '..'");
  return name;
}

/**
 * A valid file name made from any text (a file's base name, a tus upload's `name` metadata): every run of characters
 * outside `A–Z a–z 0–9 . _ -` replaced by `-`, runs of dots shortened to one, leading characters other than letters
 * and digits dropped, cut to {@linkcode MAX_NAME_LENGTH} characters; `null` when nothing usable is left (say, for
 * `...`).
 *
 * @example
 * ```ts
 * sanitizeName("first 1e6 primes.txt"); // "first-1e6-primes.txt"
 * sanitizeName(".hidden..txt");         // "hidden.txt"
 * sanitizeName("...");                  // null
 * ```
 */
export function sanitizeName(text: string): string | null {
  const name = text
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, MAX_NAME_LENGTH);
  return name === "" ? null : assertValidName(name);
}
