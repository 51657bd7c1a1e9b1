/**
 * The few WebIDL conversions and checks the stream interfaces need.
 * @module
 */

/** Any callable value. */
export type AnyFunction = (...args: never[]) => unknown;

/** Throws a `TypeError` unless `value` is an object or `undefined`/`null` (dictionary conversion). */
export function assertDictionary(value: unknown, context: string): asserts value is object | null | undefined {
  if (value !== undefined && value !== null && typeof value !== "object" && typeof value !== "function") {
    throw new TypeError(`${context} is not an object`);
  }
}

/** True when `value` is an object (including functions). */
export function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** Throws a `TypeError` unless `value` is callable (callback function conversion). */
export function assertFunction(value: unknown, context: string): asserts value is AnyFunction {
  if (typeof value !== "function") {
    throw new TypeError(`${context} is not a function`);
  }
}

/** Throws a `TypeError` when a required argument is missing. */
export function assertRequiredArgument(value: unknown, position: number, context: string): void {
  if (value === undefined) {
    throw new TypeError(`Parameter ${position} is required in '${context}'`);
  }
}

/** Throws a `TypeError` when a required dictionary member is missing. */
export function assertRequiredField(value: unknown, field: string, context: string): void {
  if (value === undefined) {
    throw new TypeError(`${field} is required in '${context}'`);
  }
}

/** WebIDL `unrestricted double`. */
export function convertUnrestrictedDouble(value: unknown): number {
  return +(value as number);
}

/** WebIDL `boolean`. */
export function convertBoolean(value: unknown): boolean {
  return Boolean(value);
}

/** WebIDL `DOMString`. */
export function convertDOMString(value: unknown): string {
  return `${value as string}`;
}

/** WebIDL `[EnforceRange] unsigned long long`. */
export function convertEnforceRangeUnsignedLongLong(value: unknown, context: string): number {
  const upper = Number.MAX_SAFE_INTEGER;
  let x = Number(value);
  x = x === 0 ? 0 : x;
  if (!Number.isFinite(x)) {
    throw new TypeError(`${context} is not a finite number`);
  }
  x = Math.trunc(x);
  if (x < 0 || x > upper) {
    throw new TypeError(`${context} is outside the accepted range of 0 to ${upper}, inclusive`);
  }
  return x === 0 ? 0 : x;
}

/** Defines `Symbol.toStringTag` on a class prototype, as WebIDL interfaces have. */
export function setToStringTag(ctor: { prototype: object }, name: string): void {
  Object.defineProperty(ctor.prototype, Symbol.toStringTag, { value: name, configurable: true });
}

/**
 * Makes the listed prototype members enumerable, as WebIDL requires for operations and attributes
 * (class syntax makes them non-enumerable).
 */
export function makeEnumerable(ctor: { prototype: object }, names: readonly string[]): void {
  const proto = ctor.prototype;
  for (const name of names) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor === undefined) {
      throw new TypeError(`Cannot make member enumerable: ${name} does not exist`);
    }
    descriptor.enumerable = true;
    Object.defineProperty(proto, name, descriptor);
  }
}

/** Sets a function's `name` property (WebIDL names getters "get x" and functions after their operation). */
export function setFunctionName(fn: AnyFunction, name: string): void {
  Object.defineProperty(fn, "name", { value: name, configurable: true });
}

/** A brand: marks objects as instances set up by this implementation, and tests for the mark. */
export interface Brand {
  /** Marks `target`; called once, when the object is set up. */
  stamp(target: object): void;
  /** Whether `value` was marked. */
  has(value: unknown): boolean;
}

/**
 * The base class of {@link createBrand}'s classes: its constructor returns `target`, so the derived
 * constructor's private field is installed on `target` instead of a new object.
 */
class ReturnTarget {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: returning `target` is how the brand stamps an existing object
    return target;
  }
}

/**
 * Creates a {@link Brand} for a class whose instances are made with `Object.create` (their constructors
 * throw). The mark is a private field, attached through a base constructor that returns the object being set
 * up; testing it (`#field in value`) is a shape check that engines inline, where an own-property lookup by
 * name ({@link hasOwnSlot}) is a runtime call. `#field in value` throws for a primitive `value`, and the
 * test catches that instead of checking the type first: a type check runs on every call, while the shape
 * check alone already rules out everything but marked objects. Only objects stamped by this implementation
 * carry the field.
 * @example
 * ```ts
 * const brand = createBrand();
 * const controller = {};
 * brand.stamp(controller);
 * brand.has(controller); // true
 * brand.has({}); // false
 * brand.has(42); // false
 * ```
 */
export function createBrand(): Brand {
  class Stamp extends ReturnTarget {
    readonly #stamped = true;

    static readonly has = (value: unknown): boolean => {
      try {
        return #stamped in (value as object);
      } catch {
        return false;
      }
    };
  }
  return {
    stamp(target) {
      new Stamp(target);
    },
    has: Stamp.has,
  };
}

/** Own-property test used for brand checks: only objects set up by this implementation carry `slot`. */
export function hasOwnSlot(value: unknown, slot: string): boolean {
  return isObject(value) && Object.hasOwn(value, slot);
}
