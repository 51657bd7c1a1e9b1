import { describe, expect, test } from "vitest";
import { hostWritableStreamLocked, isHostReadableStream } from "../../../src/streams/engine/host-streams.ts";
import { HOST_BATCH_CHUNKS } from "../../../src/streams/engine/pipe-to-host.ts";
import {
  ReadableStream as DrainpipeReadableStream,
  WritableStream as DrainpipeWritableStream,
} from "../../../src/streams/index.ts";

/** A drainpipe stream of `count` one-byte chunks produced by a synchronous pull, recording pulls and cancels. */
function counted(count: number) {
  const log = { pulls: 0, cancelled: [] as unknown[] };
  let next = 0;
  const stream = new DrainpipeReadableStream<Uint8Array>({
    pull(controller) {
      log.pulls += 1;
      if (next === count) controller.close();
      else controller.enqueue(new Uint8Array([next++ % 256]));
    },
    cancel: (reason) => void log.cancelled.push(reason),
  });
  return { stream, log };
}

function hostSink(options: { fail?: unknown } = {}) {
  const written: number[] = [];
  const events: string[] = [];
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      if (options.fail !== undefined) throw options.fail;
      written.push(...chunk);
    },
    close: () => void events.push("close"),
    abort: (reason) => void events.push(`abort ${String(reason)}`),
  });
  return { stream, written, events };
}

describe("recognising the host's own streams", () => {
  test("by the platform's brand check, never by shape", () => {
    expect(isHostReadableStream(new Response("x").body)).toBe(true);
    expect(isHostReadableStream(new DrainpipeReadableStream())).toBe(false);
    expect(isHostReadableStream(Object.create(ReadableStream.prototype))).toBe(false);
    expect(hostWritableStreamLocked(new WritableStream())).toBe(false);
    const locked = new WritableStream();
    locked.getWriter();
    expect(hostWritableStreamLocked(locked)).toBe(true);
    expect(hostWritableStreamLocked(new DrainpipeWritableStream())).toBeUndefined();
    expect(hostWritableStreamLocked({ locked: false, getWriter() {} })).toBeUndefined();
  });
});

describe("drainpipe pipeTo into the host's WritableStream", () => {
  test("moves every chunk in order and closes the destination; the source is released after", async () => {
    const { stream } = counted(1000);
    const sink = hostSink();
    await stream.pipeTo(sink.stream);
    expect(sink.written).toEqual(Array.from({ length: 1000 }, (_, i) => i % 256));
    expect(sink.events).toEqual(["close"]);
    expect(stream.locked).toBe(false);
  });

  test("reads by batches: the chunks queued in the source cross to the host's queue in one read", async () => {
    let source: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stream = new DrainpipeReadableStream<Uint8Array>(
      {
        start(controller) {
          source = controller as unknown as ReadableStreamDefaultController<Uint8Array>;
          for (let i = 0; i < 500; i++) controller.enqueue(new Uint8Array(1));
          controller.close();
        },
      },
      { highWaterMark: 1000 },
    );
    const desiredAtWrites: (number | null)[] = [];
    await stream.pipeTo(
      new WritableStream<Uint8Array>({ write: () => void desiredAtWrites.push(source!.desiredSize) }),
    );
    expect(desiredAtWrites).toHaveLength(500);
    // One chunk at a time would leave 499 queued at the first write (desiredSize 501); a batch leaves none.
    expect(desiredAtWrites[0]).toBe(0);
  });

  test("reads batches of at most HOST_BATCH_CHUNKS chunks: the pull source is drained that far per read", async () => {
    const { stream, log } = counted(5 * HOST_BATCH_CHUNKS);
    const pullsAtWrites: number[] = [];
    await stream.pipeTo(new WritableStream<Uint8Array>({ write: () => void pullsAtWrites.push(log.pulls) }));
    expect(pullsAtWrites).toHaveLength(5 * HOST_BATCH_CHUNKS);
    // Each read pulls until it holds HOST_BATCH_CHUNKS chunks (the source's high-water mark of 1 adds one).
    expect(pullsAtWrites[0]).toBe(HOST_BATCH_CHUNKS + 1);
    expect(pullsAtWrites[HOST_BATCH_CHUNKS - 1]).toBe(HOST_BATCH_CHUNKS + 1);
    expect(pullsAtWrites[HOST_BATCH_CHUNKS]).toBe(2 * HOST_BATCH_CHUNKS + 1);
  });

  test("keeps the options: preventClose leaves the destination open", async () => {
    const { stream } = counted(3);
    const sink = hostSink();
    await stream.pipeTo(sink.stream, { preventClose: true });
    expect(sink.events).toEqual([]);
    expect(sink.stream.locked).toBe(false);
  });

  test("a source error aborts the destination with it; preventAbort leaves it", async () => {
    const cause = new RangeError("source broke");
    const failing = () => new DrainpipeReadableStream<Uint8Array>({ pull: (controller) => controller.error(cause) });
    const aborted = hostSink();
    await expect(failing().pipeTo(aborted.stream)).rejects.toBe(cause);
    expect(aborted.events).toEqual(["abort RangeError: source broke"]);
    const kept = hostSink();
    await expect(failing().pipeTo(kept.stream, { preventAbort: true })).rejects.toBe(cause);
    expect(kept.events).toEqual([]);
  });

  test("a destination error cancels the source with it; preventCancel leaves it unlocked and open", async () => {
    const cause = new Error("sink broke");
    const cancelled = counted(Number.POSITIVE_INFINITY);
    await expect(cancelled.stream.pipeTo(hostSink({ fail: cause }).stream)).rejects.toBe(cause);
    expect(cancelled.log.cancelled).toEqual([cause]);
    const kept = counted(Number.POSITIVE_INFINITY);
    await expect(kept.stream.pipeTo(hostSink({ fail: cause }).stream, { preventCancel: true })).rejects.toBe(cause);
    expect(kept.log.cancelled).toEqual([]);
    expect(kept.stream.locked).toBe(false);
  });

  test("the signal aborts the pipe, cancelling the source and aborting the destination with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const { stream, log } = counted(Number.POSITIVE_INFINITY);
    const sink = hostSink();
    const piping = stream.pipeTo(sink.stream, { signal: controller.signal });
    controller.abort(reason);
    await expect(piping).rejects.toBe(reason);
    expect(log.cancelled).toEqual([reason]);
    expect(sink.events).toEqual(["abort Error: stop"]);
  });

  test("a locked host destination, or a locked source, is refused like a drainpipe one", async () => {
    const locked = new WritableStream();
    locked.getWriter();
    await expect(counted(1).stream.pipeTo(locked)).rejects.toThrow("Cannot pipe into a locked WritableStream");
    expect(() => counted(1).stream.pipeThrough({ readable: new Response("").body!, writable: locked })).toThrow(
      "Cannot pipe into a locked WritableStream",
    );
    const source = counted(1).stream;
    source.getReader();
    await expect(source.pipeTo(new WritableStream())).rejects.toThrow("Cannot pipe a locked ReadableStream");
  });
});

describe("drainpipe pipeThrough the host's transforms", () => {
  test("returns the host's readable side as it is, having piped into its writable side", async () => {
    const pair = new TextDecoderStream();
    const bytes = new TextEncoder().encode("€uro");
    const source = new DrainpipeReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const readable = source.pipeThrough(pair);
    expect(readable).toBe(pair.readable);
    let text = "";
    for await (const part of readable) text += part;
    expect(text).toBe("€uro");
  });

  test("a mixed pair (drainpipe writable, host readable) is piped like a drainpipe pair", async () => {
    const written: number[] = [];
    const writable = new DrainpipeWritableStream<Uint8Array>({ write: (chunk) => void written.push(...chunk) });
    const readable = new Response("r").body!;
    expect(counted(3).stream.pipeThrough({ readable, writable })).toBe(readable);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(written).toEqual([0, 1, 2]);
  });

  test("anything neither drainpipe's nor the host's is still refused with the standard TypeError", () => {
    const fakeWritable = { locked: false, getWriter() {}, abort() {}, close() {} };
    expect(() =>
      counted(1).stream.pipeThrough({ readable: new Response("").body!, writable: fakeWritable as never }),
    ).toThrow("Cannot pipe through: transform.writable is not a WritableStream");
    const fakeReadable = { locked: false, getReader() {} };
    expect(() => counted(1).stream.pipeThrough({ readable: fakeReadable, writable: new WritableStream() })).toThrow(
      "Cannot pipe through: transform.readable is not a ReadableStream",
    );
  });
});
