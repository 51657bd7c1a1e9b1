import { MemoryStore } from "../../src/store/memory-store.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";

describeObjectStoreContract("MemoryStore", () => new MemoryStore());
