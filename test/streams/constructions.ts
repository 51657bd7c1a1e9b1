/**
 * Counting how many objects a global constructor makes while some code runs, for tests that pin what a path
 * allocates (a probe buffer, an error nobody sees).
 * @module
 */

/** The global constructors the tests count. */
type CountedConstructor = "TypeError" | "Uint8Array";

/** Replaces `globalThis[name]` by a proxy that counts `new` calls until `restore` puts the original back. */
function countConstructions(name: CountedConstructor): { constructed(): number; restore(): void } {
  const globals = globalThis as unknown as Record<CountedConstructor, new (...args: unknown[]) => object>;
  const original = globals[name];
  let constructed = 0;
  globals[name] = new Proxy(original, {
    construct(target, args, newTarget) {
      constructed++;
      return Reflect.construct(target, args, newTarget);
    },
  });
  return {
    constructed: () => constructed,
    restore: () => {
      globals[name] = original;
    },
  };
}

/**
 * Runs `work` with `globalThis[name]` replaced by a proxy that counts `new` calls, and returns the count. Only
 * code that looks the global up while `work` runs is counted.
 */
export function constructionsOf(name: CountedConstructor, work: () => void): number {
  const counter = countConstructions(name);
  try {
    work();
  } finally {
    counter.restore();
  }
  return counter.constructed();
}

/**
 * {@link constructionsOf} for asynchronous `work`: counts the `new` calls made until the promise it returns
 * settles (by any code that runs meanwhile, so only for tests that run nothing else at the same time).
 */
export async function constructionsDuring(name: CountedConstructor, work: () => Promise<unknown>): Promise<number> {
  const counter = countConstructions(name);
  try {
    await work();
  } finally {
    counter.restore();
  }
  return counter.constructed();
}
