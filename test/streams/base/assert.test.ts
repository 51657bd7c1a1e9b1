import { describe, expect, test } from "vitest";
import { DebugAssertionError, debugAssert } from "../../../src/streams/base/assert.ts";
import {
  ReadableStream,
  type ReadableStreamDefaultController,
  TransformStream,
  WritableStream,
} from "../../../src/streams/index.ts";

/** The fields of a default controller that the fast paths cache their conditions in. */
interface CachedConditions {
  _appendOnly: boolean;
  _closeRequested: boolean;
  _pipedFrom: boolean;
  _pulling: boolean;
  _pullSettled: boolean;
}

/** The engine's view of a readable stream's controller. */
function conditionsOf<R>(stream: ReadableStream<R>): CachedConditions {
  return (stream as unknown as { _readableStreamController: CachedConditions })._readableStreamController;
}

/** A readable stream whose source has started, with its controller. */
async function startedStream(highWaterMark: number, pull?: () => void) {
  let controller!: ReadableStreamDefaultController<number>;
  const stream = new ReadableStream<number>(
    {
      start(c) {
        controller = c;
      },
      ...(pull ? { pull } : {}),
    },
    { highWaterMark },
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { stream, controller, conditions: conditionsOf(stream) };
}

// Each test breaks one invariant by hand, as an edit that forgot to clear a field would, and expects the next step
// that relies on it to stop with a DebugAssertionError (the sources run with their assertions; dist has none).
describe("debug assertions", () => {
  test("debugAssert passes when its condition holds and throws DebugAssertionError otherwise", () => {
    expect(() => debugAssert(true, "holds")).not.toThrow();
    expect(() => debugAssert(false, "a made-up invariant")).toThrow(
      new DebugAssertionError("drainpipe invariant broken: a made-up invariant"),
    );
  });

  test("an enqueue catches _appendOnly left set by a close request", async () => {
    const { controller, conditions } = await startedStream(1);
    controller.enqueue(1);
    expect(conditions._appendOnly).toBe(true);
    controller.enqueue(2);
    conditions._closeRequested = true;
    expect(() => controller.enqueue(3)).toThrow(DebugAssertionError);
  });

  test("a TransformStream's enqueue catches _appendOnly left set", async () => {
    const transform = new TransformStream<number, number>(
      {
        transform(chunk, controller) {
          controller.enqueue(chunk); // to the waiting read
          controller.enqueue(chunk); // queued: from now on an enqueue is one append
          conditionsOf(transform.readable)._closeRequested = true;
          controller.enqueue(chunk);
        },
      },
      undefined,
      { highWaterMark: 0 },
    );
    const read = transform.readable.getReader().read();
    await expect(transform.writable.getWriter().write(1)).rejects.toThrow(DebugAssertionError);
    await read;
  });

  test("a pull catches _pipedFrom left set on a stream that no reader holds", async () => {
    const { controller, conditions } = await startedStream(2, () => {});
    conditions._pipedFrom = true;
    expect(() => controller.enqueue(1)).toThrow(DebugAssertionError);
  });

  test("getReader() catches _pipedFrom left set after a pipe", async () => {
    const { stream, conditions } = await startedStream(1);
    conditions._pipedFrom = true;
    expect(() => stream.getReader()).toThrow(DebugAssertionError);
  });

  test("getWriter() catches _synchronousCompletion left set after a pipe", () => {
    const writable = new WritableStream<number>();
    const controller = (writable as unknown as { _writableStreamController: { _synchronousCompletion: boolean } })
      ._writableStreamController;
    controller._synchronousCompletion = true;
    expect(() => writable.getWriter()).toThrow(DebugAssertionError);
  });

  test("readMany catches _pullSettled set while no pull is in progress", async () => {
    const { stream, controller, conditions } = await startedStream(1, () => {});
    controller.enqueue(1);
    conditions._pulling = false;
    conditions._pullSettled = true;
    const reader = stream.getReader() as unknown as { readMany(): Promise<unknown> };
    await expect(Promise.resolve().then(() => reader.readMany())).rejects.toThrow(DebugAssertionError);
  });

  test("a pull's fulfilment catches a pull that _staleReactions did not count", async () => {
    const { conditions } = await startedStream(1, () => {});
    const reaction = conditions as unknown as { _onPullFulfilled(): void; _staleReactions: number };
    expect(conditions._pulling).toBe(false);
    expect(reaction._staleReactions).toBe(0);
    // A fulfilment arriving now answers a pull that is no longer in progress and was not counted as stale.
    expect(() => reaction._onPullFulfilled()).toThrow(DebugAssertionError);
  });

  test("with every invariant intact the same steps pass", async () => {
    const { stream, controller } = await startedStream(1, () => {});
    controller.enqueue(1);
    controller.enqueue(2);
    const reader = stream.getReader() as unknown as { readMany(): Promise<{ chunks: number[] }> };
    expect((await reader.readMany()).chunks).toEqual([1, 2]);
    const piped = await startedStream(1);
    piped.controller.close();
    await piped.stream.pipeTo(new WritableStream());
    expect(() => piped.stream.getReader()).not.toThrow();
  });
});
