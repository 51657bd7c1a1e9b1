/**
 * Binding objects whose calls are charged to a budget of subrequests: the proxy the metered bucket and the
 * worker's metered Durable Object namespace are built with.
 *
 * @module
 */
/** What metered calls are charged to: a `RequestBudget`, or anything that counts calls like one. */
export interface Meter {
  /** Counts one call named `what`; throws (a `SubrequestLimitError`) to refuse it. */
  charge(what: string): void;
}

/** What a metered method does around the call: the name it is charged as, and what it makes of the result. */
export interface MeteredCall {
  charge?: string;
  wrap?: (result: unknown) => unknown;
}

/**
 * `target` whose methods run as `callOf` says: charged to `meter` under a name, their results wrapped, or (for
 * `undefined`) untouched. Methods are bound with `Function.prototype.bind` and called with `Reflect.apply`: on a
 * Durable Object stub, `value.bind` or `value.apply` would be calls to remote methods of those names.
 */
export function metered<T extends object>(
  target: T,
  meter: Meter,
  callOf: (property: string) => MeteredCall | undefined,
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof property !== "string" || typeof value !== "function") return value;
      const call = callOf(property);
      if (call === undefined) return Function.prototype.bind.call(value, object);
      return (...args: unknown[]) => {
        if (call.charge !== undefined) meter.charge(call.charge);
        const result: unknown = Reflect.apply(value, object, args);
        return call.wrap ? call.wrap(result) : result;
      };
    },
  });
}
