import { InvalidArgumentError } from "commander";

/**
 * Turns a domain parser into a commander argument parser: an error of class `domainError` becomes an
 * `InvalidArgumentError` with the same message (commander reports it and exits with status 2); any other
 * error propagates.
 *
 * @example
 * ```ts
 * import { assertValidName, InvalidNameError } from "../files/file-name.ts";
 * const parseName = argumentParser(assertValidName, InvalidNameError);
 * parseName("primes"); // "primes"
 * ```
 */
export function argumentParser<T>(
  parse: (text: string) => T,
  domainError: abstract new (...args: never[]) => Error,
): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof domainError) throw new InvalidArgumentError(`${error.message}.`);
      throw error;
    }
  };
}
