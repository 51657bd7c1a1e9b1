import { describe, expect, test } from "vitest";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { utf8 } from "../support/bytes.ts";
import { FaultyStore } from "../support/faulty-store.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";

describeObjectStoreContract("FaultyStore over MemoryStore, no faults", () => new FaultyStore(new MemoryStore(), []));

describe("FaultyStore", () => {
  test("fails only the nth call its rule names, and counts the calls", async () => {
    const store = new FaultyStore(new MemoryStore(), [{ operation: "put", nth: 2 }]);
    await store.put("a/part-0", utf8("1\n"));
    await expect(store.put("a/part-1", utf8("2\n"))).rejects.toThrow();
    await store.put("a/part-2", utf8("3\n"));
    await store.put("a/manifest.json", utf8("{}"));
    expect(store.calls).toMatchObject({ put: 3, manifest: 1 });
    expect((await store.list("a/")).objects.map((object) => object.key)).toEqual([
      "a/manifest.json",
      "a/part-0",
      "a/part-2",
    ]);
  });
});
