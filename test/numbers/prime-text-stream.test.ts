import { describe, expect, test } from "vitest";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { primeBatches } from "../../src/numbers/prime-batches.ts";
import { primeTextStream } from "../../src/numbers/prime-text-stream.ts";
import { collect } from "./support.ts";

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

describe("primeTextStream", () => {
  test("streams the primes as decimal lines", async () => {
    expect(new TextDecoder().decode(concat(await collect(primeTextStream(6))))).toBe("2\n3\n5\n7\n11\n13\n");
  });

  test("equals encodeNumbers of the same primes, in chunks of whole lines", async () => {
    const count = 150_000; // more than two batches of primeBatches
    const expected = encodeNumbers([...primeBatches(count)].flatMap((batch) => Array.from(batch)));
    const chunks = await collect(primeTextStream(count, { chunkBytes: 100_003 }));
    expect(concat(chunks)).toEqual(expected);
    // Every chunk but the last is full up to less than one line (at most 8 bytes here) and ends a line.
    expect(chunks.slice(0, -1).every((chunk) => chunk.length > 100_003 - 8 && chunk.at(-1) === 0x0a)).toBe(true);
  });

  test("uses 1 MiB chunks by default", async () => {
    const chunks = await collect(primeTextStream(200_000));
    expect(chunks[0]!.buffer.byteLength).toBe(1024 * 1024);
    expect(chunks.length).toBe(2);
  });

  test("closes at once for count 0", async () => {
    expect(await collect(primeTextStream(0))).toEqual([]);
  });

  test("rejects bad arguments at the call", () => {
    expect(() => primeTextStream(-1)).toThrow(RangeError);
    expect(() => primeTextStream(10, { chunkBytes: 15 })).toThrow(
      "Cannot stream primes as text: chunkBytes must be an integer of at least 16, got 15",
    );
  });
});
