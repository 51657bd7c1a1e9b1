/**
 * Scenario 10's host-crossing shapes: an implementation's stream piped through the host's own transforms
 * (`TextDecoderStream`, `CompressionStream`), so the drainpipe rows measure drainpipe → host crossings against the
 * native row's native source. The host's readable side is read with a reader loop.
 *
 * @module
 */
import type { StreamClasses } from "../implementations/streams-implementation.ts";
import { addBytes, byteTally, emptyTally, type Tally } from "./matrix-chunks.ts";
import type { MatrixShape } from "./matrix-shape.ts";
import { byteChunkSource, readAll } from "./matrix-sources.ts";

/** Bytes per chunk of the crossing shapes. */
const CHUNK_BYTES = 100;

/**
 * The character `TextDecoderStream` gives for position `position` of a position-coded byte stream: the byte itself
 * below 0x80, else U+FFFD. Each byte of the pattern (0, 1, … 255, 0, …) decodes to exactly one character: no two
 * neighbours form a valid multi-byte sequence, so every byte from 0x80 up is a maximal invalid subpart of its own.
 */
function decodedCharAt(position: number): number {
  const byte = position & 255;
  return byte < 0x80 ? byte : 0xfffd;
}

/** Adds `text`, the next piece decoded from a position-coded byte stream, to `tally` (as `addBytes` does). */
export function addText(tally: Tally, text: string): void {
  const length = text.length;
  if (length === 0) return;
  const start = tally.count;
  tally.sum +=
    Math.abs(text.charCodeAt(0) - decodedCharAt(start)) +
    Math.abs(text.charCodeAt(length - 1) - decodedCharAt(start + length - 1));
  tally.count = start + length;
}

const globals = globalThis as {
  TextDecoderStream?: new () => TransformStream<Uint8Array, string>;
  CompressionStream?: new (format: "gzip") => TransformStream<Uint8Array, Uint8Array>;
  DecompressionStream?: new (format: "gzip") => TransformStream<Uint8Array, Uint8Array>;
};
const { TextDecoderStream, CompressionStream, DecompressionStream } = globals;

/**
 * Whether the host has the transform `make` builds (`undefined` when it has not) and `streams`' `pipeThrough`
 * takes it: a closed stream is piped through one. An implementation that refuses the host's streams gets a "–".
 */
function crossesInto(make: (() => TransformStream<Uint8Array, unknown>) | undefined) {
  return async (streams: StreamClasses): Promise<boolean> => {
    if (make === undefined) return false;
    try {
      const closed = new streams.ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
      await readAll(closed.pipeThrough(make()), () => undefined);
      return true;
    } catch {
      return false;
    }
  };
}

/** The host-crossing shapes, in report order. */
export const HOST_CROSSING_SHAPES: readonly MatrixShape[] = [
  {
    name: "100 B chunks: pipeThrough(new TextDecoderStream()) (host), reader loop",
    chunks: (count) => count,
    expected: (count) => byteTally(count * CHUNK_BYTES),
    supported: crossesInto(TextDecoderStream && (() => new TextDecoderStream())),
    async standard(streams, count) {
      const tally = emptyTally();
      const text = byteChunkSource(streams, count, CHUNK_BYTES).pipeThrough(new TextDecoderStream!());
      await readAll(text, (piece) => addText(tally, piece));
      return tally;
    },
  },
  {
    name: '100 B chunks: pipeThrough(new CompressionStream("gzip")) (host), gunzipped, reader loop',
    chunks: (count) => count,
    expected: (count) => byteTally(count * CHUNK_BYTES),
    supported: crossesInto(DecompressionStream && CompressionStream && (() => new CompressionStream("gzip"))),
    async standard(streams, count) {
      const tally = emptyTally();
      const gzipped = byteChunkSource(streams, count, CHUNK_BYTES).pipeThrough(new CompressionStream!("gzip"));
      await readAll(gzipped.pipeThrough(new DecompressionStream!("gzip")), (bytes) => addBytes(tally, bytes));
      return tally;
    },
  },
];
