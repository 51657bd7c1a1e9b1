import { describe, expect, test } from "vitest";
import { WritableStream } from "../../../../src/streams/index.ts";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets the stream's start step complete, so the sink is ready before the test writes. */
function started(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

describe("writev (coalesced writes)", () => {
  test("chunks queued before the sink is ready arrive in one writev call", async () => {
    const calls: number[][] = [];
    const stream = new WritableStream<number>(
      {
        write() {
          throw new Error("write must not be used for a batch");
        },
        writev(chunks) {
          calls.push(chunks);
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await Promise.all([1, 2, 3, 4].map((n) => writer.write(n)));
    expect(calls).toEqual([[1, 2, 3, 4]]);
  });

  test("a lone chunk goes to write, chunks queued meanwhile go to writev in order", async () => {
    const calls: string[] = [];
    const first = deferred();
    const stream = new WritableStream<number>(
      {
        write(chunk) {
          calls.push(`write ${chunk}`);
          return chunk === 1 ? first.promise : undefined;
        },
        writev(chunks) {
          calls.push(`writev ${chunks.join(",")}`);
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await started();
    const writes = [1, 2, 3, 4].map((n) => writer.write(n));
    await Promise.resolve();
    expect(calls).toEqual(["write 1"]);
    first.resolve();
    await Promise.all(writes);
    expect(calls).toEqual(["write 1", "writev 2,3,4"]);
  });

  test("desiredSize counts the batch until it completes", async () => {
    const batch = deferred();
    const gate = deferred();
    const stream = new WritableStream<number>(
      {
        write() {
          return gate.promise;
        },
        writev() {
          return batch.promise;
        },
      },
      { highWaterMark: 5 },
    );
    const writer = stream.getWriter();
    await started();
    const writes = [1, 2, 3].map((n) => writer.write(n));
    await Promise.resolve();
    expect(writer.desiredSize).toBe(2);
    gate.resolve();
    await writes[0];
    expect(writer.desiredSize).toBe(3);
    batch.resolve();
    await Promise.all(writes);
    expect(writer.desiredSize).toBe(5);
  });

  test("every write promise of a failed batch rejects with the sink's error", async () => {
    const gate = deferred();
    const error = new Error("writev failed");
    const stream = new WritableStream<number>(
      {
        write() {
          return gate.promise;
        },
        writev() {
          throw error;
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await started();
    const writes = [1, 2, 3].map((n) => writer.write(n));
    gate.resolve();
    await expect(writes[0]).resolves.toBeUndefined();
    await expect(writes[1]).rejects.toBe(error);
    await expect(writes[2]).rejects.toBe(error);
    await expect(writer.closed).rejects.toBe(error);
  });

  test("close waits for the batch and is not part of it", async () => {
    const events: string[] = [];
    const gate = deferred();
    const stream = new WritableStream<number>(
      {
        write(chunk) {
          events.push(`write ${chunk}`);
          return gate.promise;
        },
        writev(chunks) {
          events.push(`writev ${chunks.join(",")}`);
        },
        close() {
          events.push("close");
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await started();
    void writer.write(1);
    void writer.write(2);
    void writer.write(3);
    const closed = writer.close();
    gate.resolve();
    await closed;
    expect(events).toEqual(["write 1", "writev 2,3", "close"]);
  });

  test("abort during a batch waits for it, then rejects the queued writes", async () => {
    const batch = deferred();
    const gate = deferred();
    const events: string[] = [];
    const stream = new WritableStream<number>(
      {
        write() {
          return gate.promise;
        },
        writev(chunks) {
          events.push(`writev ${chunks.length}`);
          return batch.promise;
        },
        abort(reason) {
          events.push(`abort ${String(reason)}`);
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await started();
    const writes = [1, 2, 3].map((n) => writer.write(n));
    gate.resolve();
    await writes[0];
    const late = writer.write(4);
    const aborted = writer.abort("stop");
    expect(events).toEqual(["writev 2"]);
    batch.resolve();
    await aborted;
    await expect(writes[1]).resolves.toBeUndefined();
    await expect(writes[2]).resolves.toBeUndefined();
    await expect(late).rejects.toBe("stop");
    expect(events).toEqual(["writev 2", "abort stop"]);
  });

  test("controller.error() inside writev errors the stream", async () => {
    const gate = deferred();
    const error = new Error("from controller");
    const stream = new WritableStream<number>(
      {
        write() {
          return gate.promise;
        },
        writev(_chunks, controller) {
          controller.error(error);
        },
      },
      { highWaterMark: 10 },
    );
    const writer = stream.getWriter();
    await started();
    const writes = [1, 2, 3].map((n) => writer.write(n));
    gate.resolve();
    await Promise.allSettled(writes);
    await expect(writer.closed).rejects.toBe(error);
    await expect(writer.write(5)).rejects.toBe(error);
  });

  test("a sink with only writev also receives single chunks through it", async () => {
    const calls: number[][] = [];
    const stream = new WritableStream<number>({
      writev(chunks) {
        calls.push(chunks);
      },
    });
    const writer = stream.getWriter();
    await started();
    await writer.write(1);
    await writer.write(2);
    expect(calls).toEqual([[1], [2]]);
  });

  test("writev must be a function", () => {
    expect(() => new WritableStream({ writev: 1 } as never)).toThrow(TypeError);
  });
});
