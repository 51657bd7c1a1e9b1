import { MemoryStore } from "../../src/store/memory-store.ts";
import { describeSplitContract } from "../support/split-contract.ts";

describeSplitContract("MemoryStore", () => new MemoryStore());
