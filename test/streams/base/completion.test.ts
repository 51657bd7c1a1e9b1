import { describe, expect, test } from "vitest";
import { LazyDeferred } from "../../../src/streams/base/completion.ts";
import { promisesMadeBy } from "../pipe-cost.ts";
import { unhandledRejectionsOf } from "../unhandled-rejections.ts";

describe("LazyDeferred", () => {
  test("a pending promise asked for costs one promise, however it settles", () => {
    const deferred = new LazyDeferred<undefined>();
    expect(promisesMadeBy(() => deferred.promise).made).toBe(1);
    expect(promisesMadeBy(() => deferred.promise).made).toBe(0);
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
