import { promiseHooks } from "node:v8";
import { describe, expect, test } from "vitest";
import { LazyDeferred } from "../../../src/streams/fast-paths/completion.ts";

/** Runs `work` and counts the promises created meanwhile. */
function promisesCreatedBy(work: () => void): number {
  let created = 0;
  const stop = promiseHooks.onInit(() => {
    created += 1;
  });
  try {
    work();
  } finally {
    stop();
  }
  return created;
}

/** Unhandled rejections reported while `work` runs and the microtasks and timers it queues settle. */
async function unhandledRejectionsOf(work: () => void): Promise<unknown[]> {
  const reported: unknown[] = [];
  const listeners = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  const record = (reason: unknown) => reported.push(reason);
  process.on("unhandledRejection", record);
  try {
    work();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off("unhandledRejection", record);
    for (const listener of listeners) process.on("unhandledRejection", listener);
  }
  return reported;
}

describe("LazyDeferred", () => {
  test("a pending promise asked for costs one promise, however it settles", () => {
    const deferred = new LazyDeferred<undefined>();
    expect(promisesCreatedBy(() => deferred.promise)).toBe(1);
    expect(promisesCreatedBy(() => deferred.promise)).toBe(0);
  });

  test("its promise fulfils with the value for those awaiting it", async () => {
    const deferred = new LazyDeferred<string>();
    const promise = deferred.promise;
    deferred.resolve("done");
    await expect(promise).resolves.toBe("done");
  });

  test("a rejection is marked as handled, whether the promise was asked for before or after it", async () => {
    const before = new LazyDeferred<undefined>();
    const after = new LazyDeferred<undefined>();
    let asked: Promise<undefined> | undefined;
    const reported = await unhandledRejectionsOf(() => {
      asked = before.promise;
      before.reject(new Error("before"));
      after.reject(new Error("after"));
    });
    expect(reported).toEqual([]);
    await expect(asked).rejects.toThrow("before");
    await expect(after.promise).rejects.toThrow("after");
  });
});
