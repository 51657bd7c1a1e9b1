import { describe, expect, test } from "vitest";
import { FileCatalog } from "../../src/files/file-catalog.ts";
import { versionKeys } from "../../src/files/manifest.ts";
import { StoreNumbersError, storeNumbers } from "../../src/files/store-numbers.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { manifestKey } from "../../src/split/object-keys.ts";
import type { NumberChunk } from "../../src/split/split-writable-stream.ts";
import { listAll } from "../../src/store/list-all.ts";
import type { ObjectStore } from "../../src/store/object-store.ts";
import { ReadableStream } from "../../src/streams/index.ts";
import { readBytes } from "./bytes.ts";
import { type FaultRule, FaultyStore } from "./faulty-store.ts";

const MiB = 1024 * 1024;
/** Multi-megabyte cases write to local R2 at tens of MB/s on a shared 2-core machine: allow them time. */
const HEAVY = { timeout: 60_000 };

/** Deterministic pseudo-random safe integers of mixed sizes and signs. */
export function sampleNumbers(count: number, seed = 1): Float64Array {
  const numbers = new Float64Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const magnitude = state % 7 === 0 ? state * 2097151 : state % 100_000;
    numbers[i] = state % 5 === 0 ? -magnitude : magnitude;
  }
  return numbers;
}

/** A stream of `numbers` in batches of `batch` (a plain array every other batch, to mix chunk types). */
export function numberStream(numbers: Float64Array, batch = 1000): ReadableStream<NumberChunk> {
  let offset = 0;
  let toggle = false;
  return new ReadableStream<NumberChunk>({
    pull(controller) {
      if (offset >= numbers.length) return controller.close();
      const slice = numbers.subarray(offset, offset + batch);
      offset += batch;
      toggle = !toggle;
      controller.enqueue(toggle ? slice : Array.from(slice));
    },
  });
}

function failingAfter(numbers: Float64Array, count: number): ReadableStream<NumberChunk> {
  let sent = false;
  return new ReadableStream<NumberChunk>({
    pull(controller) {
      if (sent) return controller.error(new Error("source broke"));
      sent = true;
      controller.enqueue(numbers.subarray(0, count));
    },
  });
}

async function keysUnder(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(store, prefix)) keys.push(object.key);
  return keys;
}

/**
 * The split protocol's behaviour on a store: run against MemoryStore in Node and R2Store over a real
 * miniflare R2 binding in workerd. `createStore` must return an empty store.
 */
export function describeSplitContract(label: string, createStore: () => Promise<ObjectStore> | ObjectStore): void {
  describe(`storeNumbers contract: ${label}`, () => {
    const source = () => ({ kind: "primes", count: 0 }) as const;

    test("content round-trips byte for byte; parts are newline-aligned, full and within maxPartBytes", async () => {
      const store = await createStore();
      const numbers = sampleNumbers(20_000);
      const maxPartBytes = 10_000;
      const manifest = await storeNumbers(numberStream(numbers, 777), { store, name: "rt", maxPartBytes, source });
      const expected = encodeNumbers(numbers);
      const catalog = new FileCatalog(store);
      expect(await readBytes(catalog.content(manifest))).toEqual(expected);
      expect(manifest.totals).toEqual({
        parts: manifest.parts.length,
        bytes: expected.length,
        numbers: numbers.length,
      });
      let offset = 0;
      let index = 0;
      for (const part of manifest.parts) {
        const bytes = await readBytes((await store.get(part.key))!.body);
        expect(bytes.length).toBe(part.bytes);
        expect(part.bytes).toBeLessThanOrEqual(maxPartBytes);
        expect(bytes.at(-1)).toBe(10);
        expect(part.first).toBe(numbers[index]);
        expect(part.last).toBe(numbers[index + part.numbers - 1]);
        expect(bytes).toEqual(expected.subarray(offset, offset + part.bytes));
        const next = numbers[index + part.numbers];
        if (next !== undefined) expect(part.bytes + encodeNumbers([next]).length).toBeGreaterThan(maxPartBytes);
        offset += part.bytes;
        index += part.numbers;
      }
      expect(manifest.parts.map((part) => part.key)).toEqual([...manifest.parts.map((part) => part.key)].sort());
      expect(await catalog.manifest("rt")).toEqual(manifest);
    });

    test("an empty stream stores a manifest with no parts", async () => {
      const store = await createStore();
      const manifest = await storeNumbers(numberStream(new Float64Array(0)), {
        store,
        name: "empty",
        maxPartBytes: 1024,
        source,
      });
      expect(manifest.totals).toEqual({ parts: 0, bytes: 0, numbers: 0 });
      expect(await keysUnder(store, "empty/")).toEqual([manifestKey("empty")]);
    });

    test("parts larger than a chunk are multipart writes of equal chunks", HEAVY, async () => {
      const store = await createStore();
      const numbers = sampleNumbers(1_600_000, 7);
      const expected = encodeNumbers(numbers);
      expect(expected.length).toBeGreaterThan(11 * MiB);
      const manifest = await storeNumbers(numberStream(numbers, 50_000), {
        store,
        name: "big",
        maxPartBytes: 11 * MiB,
        chunkBytes: 5 * MiB,
        source,
      });
      expect(manifest.parts.length).toBe(2);
      expect(manifest.parts[0]!.bytes).toBeGreaterThan(10 * MiB);
      expect(await readBytes(new FileCatalog(store).content(manifest))).toEqual(expected);
    });

    const faults: [string, FaultRule[], number][] = [
      ["the second part's put", [{ operation: "put", nth: 2 }], 1024],
      ["the manifest write", [{ operation: "manifest", nth: 1 }], 1024],
      ["a multipart chunk", [{ operation: "uploadPart", nth: 2 }], 6 * MiB],
      ["completing a multipart write", [{ operation: "complete", nth: 1 }], 6 * MiB],
    ];
    for (const [what, rules, maxPartBytes] of faults) {
      test(`a failure of ${what} leaves no manifest and no parts, and keeps the previous version`, HEAVY, async () => {
        const inner = await createStore();
        const before = sampleNumbers(500, 3);
        const previous = await storeNumbers(numberStream(before), {
          store: inner,
          name: "f",
          maxPartBytes: 1024,
          source,
        });
        const store = new FaultyStore(inner, rules);
        const numbers = sampleNumbers(maxPartBytes > MiB ? 1_000_000 : 5_000, 4);
        const attempt = storeNumbers(numberStream(numbers, 10_000), {
          store,
          name: "f",
          maxPartBytes,
          chunkBytes: 5 * MiB,
          source,
        });
        await expect(attempt).rejects.toBeInstanceOf(StoreNumbersError);
        await expect(attempt).rejects.toThrow(/injected failure/);
        const catalog = new FileCatalog(inner);
        expect(await catalog.manifest("f")).toEqual(previous);
        expect(await readBytes(catalog.content(previous))).toEqual(encodeNumbers(before));
        const keys = await keysUnder(inner, "f/");
        expect(keys.sort()).toEqual([manifestKey("f"), ...previous.parts.map((part) => part.key)].sort());
      });
    }

    test("an upload that finishes while another is publishing wins, and neither leaves parts behind", async () => {
      const inner = await createStore();
      const mine = sampleNumbers(3_000, 5);
      const theirs = sampleNumbers(2_000, 6);
      let competitor: Promise<unknown> | undefined;
      const store = new FaultyStore(inner, [], async () => {
        competitor = storeNumbers(numberStream(theirs), { store: inner, name: "race", maxPartBytes: 2048, source });
        await competitor;
      });
      const winner = await storeNumbers(numberStream(mine), { store, name: "race", maxPartBytes: 2048, source });
      await competitor;
      const catalog = new FileCatalog(inner);
      expect(await catalog.manifest("race")).toEqual(winner);
      expect(await readBytes(catalog.content(winner))).toEqual(encodeNumbers(mine));
      const keys = await keysUnder(inner, "race/");
      expect(keys.sort()).toEqual(versionKeys(winner));
    });

    test("concurrent uploads of one name end with one complete result", async () => {
      const store = await createStore();
      const inputs = [sampleNumbers(4_000, 8), sampleNumbers(3_000, 9), sampleNumbers(5_000, 10)];
      const manifests = await Promise.all(
        inputs.map((numbers) =>
          storeNumbers(numberStream(numbers, 500), { store, name: "many", maxPartBytes: 1024, source }),
        ),
      );
      const catalog = new FileCatalog(store);
      const final = (await catalog.manifest("many"))!;
      const winner = manifests.findIndex((manifest) => manifest.uploadId === final.uploadId);
      expect(winner).toBeGreaterThanOrEqual(0);
      expect(await readBytes(catalog.content(final))).toEqual(encodeNumbers(inputs[winner]!));
      const keys = await keysUnder(store, "many/");
      expect(keys.sort()).toEqual(versionKeys(final));
    });

    test("a source that errors midway leaves nothing behind", async () => {
      const store = await createStore();
      const attempt = storeNumbers(failingAfter(sampleNumbers(5_000), 5_000), {
        store,
        name: "broken",
        maxPartBytes: 1024,
        source,
      });
      await expect(attempt).rejects.toThrow(/source broke/);
      expect(await keysUnder(store, "broken/")).toEqual([]);
    });

    test("replacing a file swaps the manifest and deletes the previous parts", async () => {
      const store = await createStore();
      const first = await storeNumbers(numberStream(sampleNumbers(3_000, 1)), {
        store,
        name: "r",
        maxPartBytes: 2048,
        source,
      });
      const secondNumbers = sampleNumbers(2_000, 2);
      const second = await storeNumbers(numberStream(secondNumbers), { store, name: "r", maxPartBytes: 4096, source });
      expect(second.uploadId).not.toBe(first.uploadId);
      const catalog = new FileCatalog(store);
      expect(await catalog.manifest("r")).toEqual(second);
      expect(await readBytes(catalog.content(second))).toEqual(encodeNumbers(secondNumbers));
      const keys = await keysUnder(store, "r/");
      expect(keys.sort()).toEqual(versionKeys(second));
    });

    test("remove deletes the manifest and every object under the name", async () => {
      const store = await createStore();
      await storeNumbers(numberStream(sampleNumbers(3_000)), { store, name: "gone", maxPartBytes: 2048, source });
      await store.put("gone/uploads/stale/part-00000000", new Uint8Array([49, 10]));
      const catalog = new FileCatalog(store);
      expect(await catalog.remove("gone")).toBe(true);
      expect(await keysUnder(store, "gone/")).toEqual([]);
      expect(await catalog.remove("gone")).toBe(false);
      expect(await catalog.manifest("gone")).toBeNull();
    });
  });
}
