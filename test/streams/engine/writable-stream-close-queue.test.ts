import { describe, expect, test } from "vitest";
import { WritableStream, type WritableStreamDefaultController } from "../../../src/streams/index.ts";

/** A writable stream whose sink holds each write until `release` is called, and its controller. */
function heldSink() {
  const written: number[] = [];
  const releases: (() => void)[] = [];
  let controller!: WritableStreamDefaultController<number>;
  let closed = false;
  const stream = new WritableStream<number>({
    start(c) {
      controller = c as unknown as WritableStreamDefaultController<number>;
    },
    write(chunk) {
      written.push(chunk);
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    close() {
      closed = true;
    },
  });
  return { stream, written, controller: () => controller, release: () => releases.shift()?.(), closed: () => closed };
}

describe("the close sentinel", () => {
  test("closing behind queued writes leaves the chunks' queue as it was: chunks only, sizes of 1", async () => {
    const { stream, written, controller, release, closed } = heldSink();
    const writer = stream.getWriter();
    const writes = [writer.write(1), writer.write(2), writer.write(3)];
    const closing = writer.close();
    await Promise.resolve();
    const queue = controller()._queue;
    expect(queue.length).toBe(3);
    expect(queue.hasUnitSizes).toBe(true);
    expect(queue.totalSize).toBe(3);
    expect(writer.desiredSize).toBe(-2);
    for (let index = 0; index < 3; index++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(closed()).toBe(false);
      release();
    }
    await Promise.all([...writes, closing]);
    expect(written).toEqual([1, 2, 3]);
    expect(closed()).toBe(true);
    expect(queue.length).toBe(0);
  });

  test("an error while the close is queued drops it with the chunks", async () => {
    const { stream, controller, release, closed } = heldSink();
    const writer = stream.getWriter();
    const writes = [writer.write(1), writer.write(2)];
    const closing = writer.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(controller()._closeQueued).toBe(true);
    const failure = new Error("sink failed");
    controller().error(failure);
    release();
    await expect(writes[0]).resolves.toBeUndefined();
    await expect(writes[1]).rejects.toBe(failure);
    await expect(closing).rejects.toBe(failure);
    expect(closed()).toBe(false);
    expect(controller()._closeQueued).toBe(false);
    expect(controller()._queue.length).toBe(0);
  });
});
