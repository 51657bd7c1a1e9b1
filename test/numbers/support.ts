import { NumberParser } from "../../src/numbers/number-parser.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../src/streams/index.ts";

/** The bytes of an ASCII (or UTF-8) string. */
export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Parses `chunks` with a fresh parser; returns all numbers and the final stats. */
export function parseChunks(chunks: readonly Uint8Array[]): { numbers: number[]; parser: NumberParser } {
  const parser = new NumberParser();
  const numbers: number[] = [];
  for (const chunk of chunks) numbers.push(...parser.push(chunk));
  numbers.push(...parser.end());
  return { numbers, parser };
}

/** Splits `bytes` at the given cut positions (taken modulo the length, any order, duplicates allowed). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % (bytes.length + 1))))].sort(
    (a, b) => a - b,
  );
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/** Reads a stream (drainpipe's or the runtime's) to its end with a plain reader loop. */
export async function collect<T>(stream: DrainpipeReadableStream<T> | ReadableStream<T>): Promise<T[]> {
  const reader: { read(): Promise<{ done: boolean; value?: T }> } = stream.getReader();
  const chunks: T[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value as T);
  }
}

/** A drainpipe stream that delivers `chunks` one by one. */
export function streamOf(chunks: readonly Uint8Array[]): DrainpipeReadableStream<Uint8Array> {
  let next = 0;
  return new DrainpipeReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}
