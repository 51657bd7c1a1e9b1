/**
 * The one syntax the command line accepts for sizes and counts: a whole number written with optional `_` or `,`
 * separators, decimals or an exponent (`10_000_000`, `1e7`, `1.5e6`), and for sizes a decimal or binary unit
 * (`10MB`, `10 MiB`, `512kB`, `1GiB`).
 *
 * @module
 */
import { InvalidArgumentError } from "commander";
import { formatCount } from "./format.ts";

/** Bytes per unit, by the unit's lower-case spelling. */
const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

const QUANTITY = /^([0-9][0-9_,]*(?:\.[0-9]+)?(?:e[0-9]+)?)\s*([a-z]*)$/i;

/**
 * Reads a whole number in the command line's syntax; with `units`, a size unit may follow. `undefined` when the
 * text is not one (malformed, an unknown unit, or not a whole number once scaled).
 *
 * @example
 * ```ts
 * parseQuantity("10MB", { units: true });        // 10000000
 * parseQuantity("10MiB", { units: true });       // 10485760
 * parseQuantity("1e7", { units: false });        // 10000000
 * parseQuantity("1_000_000", { units: false });  // 1000000
 * parseQuantity("1.5", { units: false });        // undefined
 * ```
 */
export function parseQuantity(text: string, options: { units: boolean }): number | undefined {
  const match = QUANTITY.exec(text.trim());
  if (!match) return undefined;
  const [, number, unit = ""] = match;
  const scale = unit === "" ? 1 : options.units ? UNITS[unit.toLowerCase()] : undefined;
  if (scale === undefined) return undefined;
  const value = Number(number!.replace(/[_,]/g, "")) * scale;
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * A commander parser of a size in bytes (`10MB`, `10MiB`, `1e7`, …) from `min` to `max`.
 *
 * @example
 * ```ts
 * const parse = sizeArgument("--segment-bytes", 1, 5_000_000_000);
 * parse("90MB"); // 90000000
 * ```
 */
export function sizeArgument(option: string, min: number, max: number): (text: string) => number {
  return quantityArgument(option, min, max, true);
}

/**
 * A commander parser of a count (`1000`, `1_000_000`, `1e6`) from `min` to `max`.
 *
 * @example
 * ```ts
 * const parse = countArgument("--parallel", 1, 64);
 * parse("8"); // 8
 * ```
 */
export function countArgument(option: string, min: number, max: number): (text: string) => number {
  return quantityArgument(option, min, max, false);
}

function quantityArgument(option: string, min: number, max: number, units: boolean): (text: string) => number {
  const form = units ? "a size such as 10MB, 10MiB or 1e7" : "a whole number such as 1000, 1_000_000 or 1e6";
  return (text) => {
    const value = parseQuantity(text, { units });
    if (value === undefined || value < min || value > max) {
      throw new InvalidArgumentError(
        `Cannot use ${option} "${text}": expected ${form}, from ${formatCount(min)} to ${formatCount(max)}.`,
      );
    }
    return value;
  };
}
