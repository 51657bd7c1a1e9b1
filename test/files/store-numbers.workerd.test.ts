import { emptyR2Store } from "../support/empty-r2-store.ts";
import { describeSplitContract } from "../support/split-contract.ts";

describeSplitContract("R2Store over miniflare R2", emptyR2Store);
