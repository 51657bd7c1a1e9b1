import { env } from "cloudflare:workers";
import { deleteAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";

/** An R2Store over the test bucket, emptied first (miniflare isolates storage per file, not per test). */
export async function emptyR2Store(): Promise<R2Store> {
  const store = new R2Store(env.BUCKET);
  await deleteAll(store, "");
  return store;
}
