/**
 * Smoke checks of the crossings between drainpipe's streams and the host's own (`TextDecoderStream`,
 * `CompressionStream`, `DecompressionStream`, `Response.body`, a host `WritableStream`), in both directions: run
 * with the other smoke checks on Node, Deno, Bun and workerd. drainpipe → host goes through drainpipe's
 * `pipeThrough`/`pipeTo`; host → drainpipe through the explicit adapter `fromNativeStream` (a host's own `pipeTo`
 * refuses drainpipe's streams).
 * @module
 */

import { fromNativeStream } from "../../src/streams/adapters/from-native.ts";
import { toNativeStream } from "../../src/streams/adapters/to-native.ts";
import {
  ReadableStream as DrainpipeReadableStream,
  TransformStream as DrainpipeTransformStream,
  WritableStream as DrainpipeWritableStream,
} from "../../src/streams/index.ts";

/** One named check; `run` rejects when the check fails. */
interface Check {
  name: string;
  run(): Promise<void>;
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`Check failed: ${message}`);
}

const encoder = new TextEncoder();

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encoder.encode(text));
}
const TEXT = "drainpipe → host: ünïcödé, split mid-character ✓\n".repeat(40);

/** `bytes` as a drainpipe stream of `size`-byte chunks (a multi-byte character is split across two of them). */
function drainpipeChunks(
  bytes: Uint8Array<ArrayBuffer>,
  size: number,
): DrainpipeReadableStream<Uint8Array<ArrayBuffer>> {
  let offset = 0;
  return new DrainpipeReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function hostText(stream: ReadableStream<string>): Promise<string> {
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += value;
  }
}

async function drainpipeBytes(stream: DrainpipeReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}

/** A drainpipe pass-through transform: host → drainpipe crossings end in a drainpipe stream. */
function passThrough(): DrainpipeTransformStream<Uint8Array, Uint8Array> {
  return new DrainpipeTransformStream<Uint8Array, Uint8Array>();
}

/** The crossing checks, in the order they run. */
export const hostCrossingChecks: readonly Check[] = [
  {
    name: "host crossing: drainpipe stream .pipeThrough(new TextDecoderStream())",
    async run() {
      const decoded = drainpipeChunks(utf8(TEXT), 7).pipeThrough(new TextDecoderStream());
      check((await hostText(decoded)) === TEXT, "decoded text equals the original");
    },
  },
  {
    name: "host crossing: drainpipe stream through CompressionStream and DecompressionStream, back to drainpipe",
    async run() {
      const bytes = utf8(TEXT);
      const gzipped = drainpipeChunks(bytes, 100).pipeThrough(new CompressionStream("gzip"));
      const restored = fromNativeStream(gzipped.pipeThrough(new DecompressionStream("gzip")));
      check(sameBytes(await drainpipeBytes(restored.pipeThrough(passThrough())), bytes), "bytes survive gzip");
    },
  },
  {
    name: "host crossing: Response.body into drainpipe (fromNativeStream) and drainpipe into a Response",
    async run() {
      const bytes = utf8(TEXT);
      const fromHost = fromNativeStream(new Response(bytes).body!).pipeThrough(passThrough());
      const toHost = new Response(toNativeStream(fromHost));
      check(sameBytes(new Uint8Array(await toHost.arrayBuffer()), bytes), "bytes survive host → drainpipe → host");
      // Each runtime's Response also takes a drainpipe stream itself (as an async iterable of bytes).
      const direct = new Response(drainpipeChunks(bytes, 100) as unknown as ReadableStream<Uint8Array>);
      check(sameBytes(new Uint8Array(await direct.arrayBuffer()), bytes), "a Response reads a drainpipe stream");
    },
  },
  {
    name: "host crossing: drainpipe stream .pipeTo(host WritableStream), errors crossing both ways",
    async run() {
      const written: number[] = [];
      await drainpipeChunks(new Uint8Array(1000), 10).pipeTo(
        new WritableStream<Uint8Array>({ write: (chunk) => void written.push(chunk.byteLength) }),
      );
      check(written.length === 100 && written.every((size) => size === 10), "every chunk written");

      const sourceError = new Error("source broke");
      const abortReasons: unknown[] = [];
      const failing = new DrainpipeReadableStream<Uint8Array>({ pull: (controller) => controller.error(sourceError) });
      const aborted = new WritableStream<Uint8Array>({ abort: (reason) => void abortReasons.push(reason) });
      const piped = await failing.pipeTo(aborted).then(
        () => undefined,
        (error: unknown) => error,
      );
      check(piped === sourceError && abortReasons[0] === sourceError, "a source error aborts the host sink with it");

      const sinkError = new Error("sink broke");
      const cancelReasons: unknown[] = [];
      const endless = new DrainpipeReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(1)),
        cancel: (reason) => void cancelReasons.push(reason),
      });
      const broken = new WritableStream<Uint8Array>({
        write() {
          throw sinkError;
        },
      });
      const rejected = await endless.pipeTo(broken).then(
        () => undefined,
        (error: unknown) => error,
      );
      check(rejected === sinkError && cancelReasons[0] === sinkError, "a sink error cancels the source with it");
      check(!endless.locked, "the source is released after the pipe");
    },
  },
  {
    name: "host crossing: the host's own pipeTo refuses a drainpipe WritableStream; fromNativeStream crosses",
    async run() {
      const refused = await new Response("abc")
        .body!.pipeTo(new DrainpipeWritableStream() as unknown as WritableStream<Uint8Array>)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      check(refused instanceof TypeError, "the host's pipeTo rejects with a TypeError");
      const written: number[] = [];
      await fromNativeStream(new Response("abc").body!).pipeTo(
        new DrainpipeWritableStream<Uint8Array>({ write: (chunk) => void written.push(...chunk) }),
      );
      check(written.join() === "97,98,99", "fromNativeStream pipes a host body into a drainpipe sink");
    },
  },
  {
    name: "host crossing: the host's own pipeThrough refuses a drainpipe TransformStream; fromNativeStream crosses",
    async run() {
      let refused: unknown;
      try {
        new Response("abc").body!.pipeThrough(passThrough() as unknown as TransformStream<Uint8Array, Uint8Array>);
      } catch (error) {
        refused = error;
      }
      check(refused instanceof TypeError, "the host's pipeThrough throws a TypeError");
      const crossed = fromNativeStream(new Response("abc").body!).pipeThrough(passThrough());
      check(sameBytes(await drainpipeBytes(crossed), utf8("abc")), "fromNativeStream then drainpipe's pipeThrough");
    },
  },
  {
    name: "host crossing: with drainpipe's classes as the globals, toNativeStream still gives the host its own stream",
    async run() {
      const hostClass = ReadableStream;
      const bytes = utf8(TEXT);
      Object.defineProperty(globalThis, "ReadableStream", { value: DrainpipeReadableStream, configurable: true });
      try {
        const native = toNativeStream(drainpipeChunks(bytes, 100) as DrainpipeReadableStream<Uint8Array>);
        check(native instanceof hostClass, "the adapter's stream is the host's class");
        check(sameBytes(new Uint8Array(await new Response(native).arrayBuffer()), bytes), "a Response reads it");
      } finally {
        Object.defineProperty(globalThis, "ReadableStream", { value: hostClass, configurable: true });
      }
    },
  },
  {
    name: "host crossing: a look-alike that is not the host's WritableStream is still refused",
    async run() {
      const fake = { locked: false, getWriter: () => new DrainpipeWritableStream().getWriter() };
      const refused = await DrainpipeReadableStream.from([1])
        .pipeTo(fake as unknown as DrainpipeWritableStream<number>)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      check(refused instanceof TypeError, "pipeTo rejects with a TypeError");
    },
  },
];
