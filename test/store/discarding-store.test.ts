import { describe, expect, test } from "vitest";
import { DiscardingStore, discardedEqual, sha256 } from "../../harness/discarding-store.ts";
import { utf8 } from "../support/bytes.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";

describeObjectStoreContract("DiscardingStore", () => new DiscardingStore(), { keepsObjects: false });

describe("DiscardingStore", () => {
  test("records each object's key, size and (when asked) digest, and keeps no bytes", async () => {
    const store = new DiscardingStore({ digests: true });
    const bytes = utf8("2\n3\n5\n7\n");
    await store.put("p/part-0", bytes.subarray(0, 4));
    const write = await store.createMultipartWrite("p/part-1");
    await write.complete([
      await write.uploadPart(1, bytes.subarray(4, 6)),
      await write.uploadPart(2, bytes.subarray(6)),
    ]);
    expect(store.objects).toEqual([
      { key: "p/part-0", bytes: 4, sha256: await sha256(bytes.subarray(0, 4)) },
      { key: "p/part-1", bytes: 4, sha256: await sha256(bytes.subarray(4)) },
    ]);
    expect(await discardedEqual(store.objects, bytes)).toBe(true);
    expect(await discardedEqual(store.objects, utf8("2\n3\n5\n8\n"))).toBe(false);
    expect(await store.get("p/part-0")).toBeNull();
    expect(await store.list("p/")).toEqual({ objects: [], prefixes: [] });
  });

  test("computes no digest unless asked", async () => {
    const store = new DiscardingStore();
    await store.put("k", utf8("x"));
    expect(store.objects).toEqual([{ key: "k", bytes: 1 }]);
  });
});
