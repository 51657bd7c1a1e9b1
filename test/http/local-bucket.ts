/**
 * The local R2 bucket of a worker run in local workerd (`startEmbeddedWorker`, `npm start`), read from its files on
 * disk while the worker is stopped: what the tests over real HTTP check is left behind.
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";

/** One page of an R2 listing, as the platform proxy answers it. */
type ListPage = { objects: { key: string }[]; truncated: boolean; cursor?: string };

/**
 * Every key in the local bucket kept under `stateDir` (the worker's `--persist-to`), sorted; the worker must be
 * stopped first. It is read through wrangler's platform proxy with a configuration holding the project's bucket and
 * nothing else (the project's own names a Durable Object class that only the worker's code exports, which wrangler
 * would warn about), written into `stateDir`.
 *
 * @example
 * ```ts
 * declare const stateDir: string;
 * const keys = await localBucketKeys(stateDir); // say ["primes/manifest.json", "primes/uploads/…/part-00000000"]
 * ```
 */
export async function localBucketKeys(stateDir: string): Promise<string[]> {
  const configPath = join(stateDir, "bucket-only.wrangler.toml");
  const bucket = /\[\[r2_buckets\]\][^[]*/.exec(await readFile("wrangler.toml", "utf8"))![0];
  await writeFile(configPath, `name = "drainpipe-bucket"\ncompatibility_date = "2026-11-01"\n\n${bucket}`);
  const proxy = await getPlatformProxy<{ BUCKET: { list(options: { cursor?: string }): Promise<ListPage> } }>({
    configPath,
    persist: { path: join(stateDir, "v3") },
  });
  try {
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await proxy.env.BUCKET.list(cursor === undefined ? {} : { cursor });
      keys.push(...page.objects.map((object) => object.key));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
    return keys.sort();
  } finally {
    await proxy.dispose();
  }
}
