/**
 * Pipelines through drainpipe's three iterable-streams bridges, for the property tests with and without Node 26:
 * a drainpipe stream read through `[Symbol.for("Stream.toAsyncStreamable")]()`, `fromStreamable`, and `toWriter`,
 * joined by the protocols alone (no implementation of the API needed).
 * @module
 */

import fc from "fast-check";
import { ReadableStream, WritableStream } from "../../../src/streams/index.ts";
import { fromStreamable, toAsyncStreamable, toWriter, type Writer } from "../../../src/streams/iterable/index.ts";

/** Chunks grouped in batches, as a source hands them over. */
export type Batches = Uint8Array[][];

/** Random batches of random chunks (empty chunks and batches included). */
export const batchesArb: fc.Arbitrary<Batches> = fc.array(
  fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 12 }),
  { maxLength: 12 },
);

/** All bytes of `batches`, in order. */
export function joined(batches: readonly (readonly Uint8Array[])[]): number[] {
  return batches.flatMap((batch) => batch.flatMap((chunk) => [...chunk]));
}

/**
 * A drainpipe stream that enqueues one batch per pull (an empty one is skipped: a pull that enqueues nothing is not
 * called again), copying each chunk so the inputs stay intact.
 */
export function drainpipeSource(batches: Batches): ReadableStream<Uint8Array> {
  const nonEmpty = batches.filter((batch) => batch.length > 0);
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await Promise.resolve();
      if (index === nonEmpty.length) return controller.close();
      for (const chunk of nonEmpty[index++] ?? []) controller.enqueue(chunk.slice());
    },
  });
}

/** The async iterable of batches of a drainpipe stream (its conversion protocol). */
export function batchesOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array[]> {
  return { [Symbol.asyncIterator]: () => stream[toAsyncStreamable]() };
}

/** A drainpipe writable stream whose sink (sometimes slow, with `writev`) records every byte. */
export function recordingWritable(highWaterMark: number, slow: boolean) {
  const bytes: number[] = [];
  // Slow: each write completes a few jobs later, so chunks pile up in the queue meanwhile.
  const wait = (): Promise<void> | undefined =>
    slow
      ? Promise.resolve()
          .then(() => undefined)
          .then(() => undefined)
      : undefined;
  const stream = new WritableStream<Uint8Array>(
    {
      write(chunk) {
        bytes.push(...chunk);
        return wait();
      },
      writev(chunks) {
        for (const chunk of chunks) bytes.push(...chunk);
        return wait();
      },
    },
    { highWaterMark },
  );
  return { stream, bytes };
}

/** Writes every batch of `source` through `writer` as the API's `pipeTo` does (sync first), then ends it. */
export async function writeAll(source: AsyncIterable<Uint8Array[]>, writer: Writer): Promise<number> {
  for await (const batch of source) {
    if (!writer.writevSync(batch)) await writer.writev(batch);
  }
  return writer.end();
}

/** Which bridges a pipeline goes through. */
export interface BridgeChoice {
  /** Start from a drainpipe stream read by its conversion protocol (else from the plain batches). */
  readable: boolean;
  /** Pass through `fromStreamable` (and read that stream by its conversion protocol). */
  fromStreamable: boolean;
  /** End in `toWriter` over a drainpipe writable stream (else collect the batches). */
  writer: boolean;
  /** The writable stream's high-water mark (chunks). */
  highWaterMark: number;
  /** Whether its sink completes asynchronously. */
  slow: boolean;
}

/** Random bridge choices. */
export const bridgeChoiceArb: fc.Arbitrary<BridgeChoice> = fc.record({
  readable: fc.boolean(),
  fromStreamable: fc.boolean(),
  writer: fc.boolean(),
  highWaterMark: fc.integer({ min: 1, max: 64 }),
  slow: fc.boolean(),
});

async function* plain(batches: Batches): AsyncGenerator<Uint8Array[]> {
  for (const batch of batches) yield batch.map((chunk) => chunk.slice());
}

/** Runs `batches` through the chosen bridges; resolves with the bytes that came out. */
export async function throughBridges(batches: Batches, choice: BridgeChoice): Promise<number[]> {
  let source: AsyncIterable<Uint8Array[]> = choice.readable ? batchesOf(drainpipeSource(batches)) : plain(batches);
  if (choice.fromStreamable) source = batchesOf(fromStreamable(source));
  if (choice.writer) {
    const sink = recordingWritable(choice.highWaterMark, choice.slow);
    const written = await writeAll(source, toWriter(sink.stream));
    if (written !== sink.bytes.length)
      throw new Error(`end() said ${written} bytes, the sink got ${sink.bytes.length}`);
    return sink.bytes;
  }
  const out: Uint8Array[][] = [];
  for await (const batch of source) out.push(batch);
  return joined(out);
}
