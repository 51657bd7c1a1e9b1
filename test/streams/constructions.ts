/**
 * Counting how many objects a global constructor makes while some code runs, for tests that pin what a path
 * allocates (a probe buffer, an error nobody sees).
 * @module
 */

/** The global constructors the tests count. */
type CountedConstructor = "TypeError" | "Uint8Array";

/**
 * Runs `work` with `globalThis[name]` replaced by a proxy that counts `new` calls, and returns the count. Only
 * code that looks the global up while `work` runs is counted.
 */
export function constructionsOf(name: CountedConstructor, work: () => void): number {
  const globals = globalThis as unknown as Record<CountedConstructor, new (...args: unknown[]) => object>;
  const original = globals[name];
  let constructed = 0;
  globals[name] = new Proxy(original, {
    construct(target, args, newTarget) {
      constructed++;
      return Reflect.construct(target, args, newTarget);
    },
  });
  try {
    work();
  } finally {
    globals[name] = original;
  }
  return constructed;
}
