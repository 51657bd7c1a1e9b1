import { emptyR2Store } from "../support/empty-r2-store.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";

describeObjectStoreContract("R2Store over miniflare R2", emptyR2Store);
