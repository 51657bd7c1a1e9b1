/**
 * `error` or the first error in its `cause` chain that is a `type`, if any: what a layer looks for under the
 * errors the layers above wrapped it in (a `SubrequestLimitError` inside a `StoreError`, say).
 *
 * @example
 * ```ts
 * const inner = new RangeError("too far");
 * const outer = new Error("Cannot read", { cause: inner });
 * causedBy(outer, RangeError) === inner; // true
 * ```
 */
export function causedBy<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof type) return current;
  }
  return undefined;
}
