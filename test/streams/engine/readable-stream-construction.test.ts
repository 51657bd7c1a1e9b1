import { createHook } from "node:async_hooks";
import { describe, expect, test } from "vitest";
import { ReadableStream } from "../../../src/streams/index.ts";

/** How many promises `make` creates, counted by a promise hook while it runs (synchronously). */
function promisesCreatedBy(make: () => unknown): number {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  });
  hook.enable();
  try {
    make();
  } finally {
    hook.disable();
  }
  return promises;
}

describe("ReadableStream construction cost", () => {
  test("a source without start costs one promise: the start reaction's, on a shared resolved promise", () => {
    const promises = promisesCreatedBy(
      () => new ReadableStream<number>({ pull: (controller) => controller.enqueue(1) }),
    );
    expect(promises).toBe(1);
  });

  test("a start that returns a value still waits for a promise resolved with it", () => {
    const promises = promisesCreatedBy(() => new ReadableStream<number>({ start: () => 42 }));
    expect(promises).toBe(2);
  });

  test("the start reaction runs a microtask later and then pulls, as before", async () => {
    const events: string[] = [];
    new ReadableStream<number>(
      {
        start: () => void events.push("start"),
        pull: () => void events.push("pull"),
      },
      { highWaterMark: 1 },
    );
    events.push("constructed");
    await Promise.resolve();
    events.push("one microtask");
    await Promise.resolve();
    expect(events).toEqual(["start", "constructed", "pull", "one microtask"]);
  });

  test("a start that rejects errors the stream through the shared reaction", async () => {
    const failure = new Error("start failed");
    const stream = new ReadableStream({ start: () => Promise.reject(failure) });
    await expect(stream.getReader().read()).rejects.toBe(failure);
  });

  test("the controller constructor stays illegal for user code", () => {
    let controller: unknown;
    new ReadableStream({
      start(c) {
        controller = c;
      },
    });
    const Controller = (controller as object).constructor as new (...args: unknown[]) => unknown;
    expect(() => new Controller()).toThrow(TypeError);
    expect(() => new Controller(Symbol("ReadableStreamDefaultController construction"))).toThrow(TypeError);
    expect(Controller.length).toBe(0);
  });
});
