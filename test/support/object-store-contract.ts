import { describe, expect, test } from "vitest";
import { listAll, listPrefixes } from "../../src/store/list-all.ts";
import type { ObjectStore } from "../../src/store/object-store.ts";
import { readBytes, text, utf8 } from "./bytes.ts";

const MiB = 1024 * 1024;
/** Cases that make a thousand writes: local R2 on a shared 2-core machine needs more than the default 5 s. */
const SLOW = { timeout: 60_000 };

/** How a store under the contract keeps what it is given. */
export interface ContractOptions {
  /**
   * Whether the store keeps what is written (default `true`). A store that keeps nothing (the benchmarks'
   * `DiscardingStore`) runs only the half of the contract about writes: what each write answers.
   */
  keepsObjects?: boolean;
}

/**
 * The behaviour every ObjectStore implementation must have: what each write answers, and, for a store that keeps
 * what it is given, reading, listing, conditional writes and deletes. Run against every store the project ships
 * or tests with: MemoryStore and the test doubles in Node, R2Store (alone and under the worker's LeasedStore) over
 * a real miniflare R2 binding in workerd. `createStore` must return an empty store.
 */
export function describeObjectStoreContract(
  label: string,
  createStore: () => ObjectStore | Promise<ObjectStore>,
  { keepsObjects = true }: ContractOptions = {},
): void {
  describe(`ObjectStore contract: ${label}`, () => {
    test("every put answers the key, the size and an etag of its own", async () => {
      const store = await createStore();
      const first = await store.put("w/a", utf8("hello\n"));
      const second = await store.put("w/a", utf8("hi\n"));
      expect(first).toMatchObject({ key: "w/a", size: 6 });
      expect(second).toMatchObject({ key: "w/a", size: 3 });
      expect(first.etag).not.toBe("");
      expect(second.etag).not.toBe(first.etag);
      expect(await store.putIfMatch("w/new", utf8("1"), null)).toMatchObject({ key: "w/new", size: 1 });
    });

    test("a multipart write has an id and completes to the key and the parts' total size", async () => {
      const store = await createStore();
      const write = await store.createMultipartWrite("w/mp");
      expect(write.id).not.toBe("");
      const parts = [await write.uploadPart(1, new Uint8Array(5 * MiB)), await write.uploadPart(2, utf8("tail\n"))];
      expect(parts.map((part) => part.partNumber)).toEqual([1, 2]);
      expect(await write.complete(parts)).toMatchObject({ key: "w/mp", size: 5 * MiB + 5 });
    });

    test("aborting a multipart write, by the write or twice by its key and id, resolves", async () => {
      const store = await createStore();
      const write = await store.createMultipartWrite("w/gone");
      await write.uploadPart(1, utf8("partial"));
      await write.abort();
      const orphan = await store.createMultipartWrite("w/orphan");
      await store.abortMultipart("w/orphan", orphan.id);
      await store.abortMultipart("w/orphan", orphan.id);
    });

    if (keepsObjects) describeReadBack(createStore);
  });
}

/** The half of the contract for a store that keeps what it is given: reads, listings, conditions, deletes. */
function describeReadBack(createStore: () => ObjectStore | Promise<ObjectStore>): void {
  test("put then get returns the same bytes, size and etag", async () => {
    const store = await createStore();
    const stored = await store.put("a/b", utf8("hello\n"));
    expect(stored).toMatchObject({ key: "a/b", size: 6 });
    expect(stored.etag).not.toBe("");
    const object = await store.get("a/b");
    expect(object).toMatchObject({ key: "a/b", size: 6, etag: stored.etag });
    expect(text(await readBytes(object!.body))).toBe("hello\n");
  });

  test("get of a missing key resolves null", async () => {
    expect(await (await createStore()).get("missing")).toBeNull();
    expect(await (await createStore()).get("missing", { offset: 0, length: 1 })).toBeNull();
  });

  test("a ranged get returns exactly those bytes, and the whole object's size and etag", async () => {
    const store = await createStore();
    const stored = await store.put("r/a", utf8("0123456789\n"));
    for (const [offset, length, expected] of [
      [0, 1, "0"],
      [3, 4, "3456"],
      [10, 1, "\n"],
      [0, 11, "0123456789\n"],
    ] as const) {
      const object = await store.get("r/a", { offset, length });
      expect(object).toMatchObject({ key: "r/a", size: 11, etag: stored.etag });
      expect(text(await readBytes(object!.body))).toBe(expected);
    }
  });

  test("put replaces and gives a new etag", async () => {
    const store = await createStore();
    const first = await store.put("k", utf8("1\n"));
    const second = await store.put("k", utf8("22\n"));
    expect(second.etag).not.toBe(first.etag);
    expect(text(await readBytes((await store.get("k"))!.body))).toBe("22\n");
  });

  test("putIfMatch writes only when the current etag (or absence) is as expected", async () => {
    const store = await createStore();
    const created = await store.putIfMatch("cas", utf8("1"), null);
    expect(created).toMatchObject({ key: "cas", size: 1 });
    expect(await store.putIfMatch("cas", utf8("2"), null)).toBeNull();
    expect(await store.putIfMatch("cas", utf8("3"), "not-the-etag")).toBeNull();
    const replaced = await store.putIfMatch("cas", utf8("44"), created!.etag);
    expect(replaced).toMatchObject({ size: 2 });
    expect(text(await readBytes((await store.get("cas"))!.body))).toBe("44");
    expect(await store.putIfMatch("cas", utf8("5"), created!.etag)).toBeNull();
  });

  test("list filters by prefix, sorts keys and groups by delimiter", async () => {
    const store = await createStore();
    for (const key of ["x/2", "x/1", "y/1", "x/sub/1", "x/sub/2", "z"]) await store.put(key, utf8(key));
    const flat = await store.list("x/");
    expect(flat.objects.map((o) => o.key)).toEqual(["x/1", "x/2", "x/sub/1", "x/sub/2"]);
    expect(flat.objects[0]!.size).toBe(3);
    const grouped = await store.list("", { delimiter: "/" });
    expect(grouped.prefixes).toEqual(["x/", "y/"]);
    expect(grouped.objects.map((o) => o.key)).toEqual(["z"]);
    const nested = await store.list("x/", { delimiter: "/" });
    expect(nested.prefixes).toEqual(["x/sub/"]);
    expect(nested.objects.map((o) => o.key)).toEqual(["x/1", "x/2"]);
  });

  test("listing follows cursors past one page", SLOW, async () => {
    const store = await createStore();
    const groups = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, "0")}/`);
    const keys = groups.map((group) => `${group}x`);
    await Promise.all(keys.map((key) => store.put(key, utf8("x"))));
    const listed: string[] = [];
    for await (const object of listAll(store, "many/")) listed.push(object.key);
    expect(listed).toEqual(keys);
    const prefixes: string[] = [];
    for await (const prefix of listPrefixes(store, "many/", "/")) prefixes.push(prefix);
    expect(prefixes).toEqual(groups);
  });

  test("delete removes listed keys and ignores missing ones", async () => {
    const store = await createStore();
    await store.put("d/1", utf8("1"));
    await store.put("d/2", utf8("2"));
    await store.delete(["d/1", "d/missing"]);
    expect((await store.list("d/")).objects.map((o) => o.key)).toEqual(["d/2"]);
  });

  test("a multipart write assembles equal segments and a shorter last one", async () => {
    const store = await createStore();
    const write = await store.createMultipartWrite("mp");
    const first = new Uint8Array(5 * MiB).fill(0x31);
    const last = utf8("tail\n");
    const segments = [await write.uploadPart(1, first), await write.uploadPart(2, last)];
    const stored = await write.complete(segments);
    expect(stored).toMatchObject({ key: "mp", size: 5 * MiB + 5 });
    const bytes = await readBytes((await store.get("mp"))!.body);
    expect(bytes.length).toBe(5 * MiB + 5);
    expect(bytes[0]).toBe(0x31);
    expect(text(bytes.subarray(5 * MiB))).toBe("tail\n");
  });

  test("an aborted multipart write leaves no object", async () => {
    const store = await createStore();
    const write = await store.createMultipartWrite("gone");
    await write.uploadPart(1, utf8("partial"));
    await write.abort();
    expect(await store.get("gone")).toBeNull();
    expect((await store.list("gone")).objects).toEqual([]);
  });

  test("a multipart write can be aborted by its key and id alone, and then cannot complete", async () => {
    const store = await createStore();
    const write = await store.createMultipartWrite("orphan");
    const segment = await write.uploadPart(1, utf8("partial"));
    expect(write.id).not.toBe("");
    await store.abortMultipart("orphan", write.id);
    await expect(write.complete([segment])).rejects.toThrow();
    expect(await store.get("orphan")).toBeNull();
  });

  test("aborting a multipart write that already completed or was aborted resolves", async () => {
    const store = await createStore();
    const aborted = await store.createMultipartWrite("twice");
    await store.abortMultipart("twice", aborted.id);
    await store.abortMultipart("twice", aborted.id);
    const completed = await store.createMultipartWrite("done");
    await completed.complete([await completed.uploadPart(1, utf8("whole\n"))]);
    await store.abortMultipart("done", completed.id);
    expect(text(await readBytes((await store.get("done"))!.body))).toBe("whole\n");
  });
}
