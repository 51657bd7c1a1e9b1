import { MemoryStore } from "../../src/split/memory-store.ts";
import { describeSplitContract } from "../support/split-contract.ts";

describeSplitContract("MemoryStore", () => new MemoryStore());
