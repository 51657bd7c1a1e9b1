/**
 * A bench-only worker (never deployed) for scenarios 4 and 5. It runs drainpipe's ingest pipeline, the naive
 * one and the floors inside workerd, with the same R2 binding (`BUCKET`) as the real worker:
 *
 * - `POST /drainpipe/discard[?digests=1]`: the real upload route's pipeline (`storeRequestBody`: pooled 1 MiB
 *   reads, byte limit, `LineToNumberStream`, `storeNumbers`) into a {@linkcode DiscardingStore};
 * - `POST /drainpipe/r2?name=N[&coordinated=1]`: the same pipeline into R2, publishing the manifest by a
 *   compare-and-swap of its own (the worker before its file coordinator), or through the file coordinator as the
 *   real worker does (admission, lease renewal, multipart records, serialised publication): the coordinator's
 *   cost, side by side;
 * - `POST /naive/discard`, `POST /naive/r2?name=N`: {@linkcode naiveIngest} into a discarding store or into R2
 *   under `naive/<N>/`;
 * - `POST /floor/read`: reads the body with `{ min: 1 MiB }` reads and nothing else;
 * - `POST /floor/r2-put?name=N`: the same reads gathered into 10 MiB buffers, each `put` to R2 (at most two in
 *   flight).
 *
 * Every route answers JSON describing what it did, so the caller can check it.
 *
 * @module
 */
import type { FileCoordinator } from "../../src/coordinator/file-coordinator.ts";
import type { R2BucketLike } from "../../src/store/r2-store.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { DEFAULT_CHUNK_SIZE } from "../../src/streams/index.ts";
import { coordinatedUpload } from "../../src/worker/coordinated-upload.ts";
import { storeRequestBody } from "../../src/worker/store-request-body.ts";
import { DiscardingStore } from "./discarding-store.ts";
import { naiveIngest } from "./naive-ingest.ts";

/** The bindings of the bench worker (those of `wrangler.toml`). */
export interface IngestWorkerEnv {
  /** The R2 bucket. */
  BUCKET: R2BucketLike;
  /** The file coordinators. */
  COORDINATOR: DurableObjectNamespace<FileCoordinator>;
}

/** The lease of a coordinated upload: the worker's default. */
const LEASE_MS = 60_000;

/**
 * The byte and number limits of the discarding pipeline: never reached, so the limits do their counting work
 * as in the real worker without ever refusing a benchmark body.
 */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** Part size of every route: the worker's default, 10 MiB. */
const PART_BYTES = 10 * 1024 * 1024;

type ByobReadWithMin = (view: Uint8Array, options: { min: number }) => Promise<ReadableStreamReadResult<Uint8Array>>;

/**
 * Reads `body` to its end with BYOB reads of exactly `DEFAULT_CHUNK_SIZE` (1 MiB, `{ min }`; the last may be shorter)
 * into one reused buffer, handing each filled view to `filled` before the next read.
 */
async function readAll(
  body: ReadableStream<Uint8Array>,
  filled: (view: Uint8Array) => Promise<void> | void,
): Promise<{ bytes: number; reads: number }> {
  const reader = body.getReader({ mode: "byob" });
  const read = reader.read.bind(reader) as unknown as ByobReadWithMin;
  let buffer: Uint8Array = new Uint8Array(DEFAULT_CHUNK_SIZE);
  let bytes = 0;
  let reads = 0;
  for (;;) {
    const { done, value } = await read(buffer, { min: buffer.length });
    if (value && value.byteLength > 0) {
      bytes += value.byteLength;
      reads += 1;
      await filled(value);
    }
    if (done) return { bytes, reads };
    buffer = value ? new Uint8Array(value.buffer) : new Uint8Array(DEFAULT_CHUNK_SIZE);
  }
}

function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}

async function drainpipeDiscard(request: Request, url: URL): Promise<Response> {
  const store = new DiscardingStore({ digests: url.searchParams.get("digests") === "1" });
  const manifest = await storeRequestBody(request, {
    store,
    name: "bench",
    maxPartBytes: PART_BYTES,
    maxUploadBytes: NO_LIMIT,
    maxNumbers: NO_LIMIT,
  });
  return Response.json({ manifest, objects: store.objects });
}

async function drainpipeR2(request: Request, url: URL, env: IngestWorkerEnv): Promise<Response> {
  const name = url.searchParams.get("name") ?? "bench";
  const store = new R2Store(env.BUCKET);
  const options = { name, maxPartBytes: PART_BYTES, maxUploadBytes: NO_LIMIT, maxNumbers: NO_LIMIT };
  const coordinator = env.COORDINATOR.getByName(name);
  const manifest =
    url.searchParams.get("coordinated") === "1"
      ? await coordinatedUpload({ coordinator, name, leaseMs: LEASE_MS, store }, (admitted) =>
          storeRequestBody(request, { ...options, ...admitted }),
        )
      : await storeRequestBody(request, { ...options, store });
  return Response.json(manifest);
}

async function naive(request: Request, url: URL, target: "discard" | "r2", env: IngestWorkerEnv): Promise<Response> {
  const name = url.searchParams.get("name") ?? "bench";
  const store = target === "r2" ? new R2Store(env.BUCKET) : new DiscardingStore();
  const result = await naiveIngest(request.body ?? emptyBody(), store, `naive/${name}/`, PART_BYTES);
  return Response.json(result);
}

async function floorRead(request: Request): Promise<Response> {
  return Response.json(await readAll(request.body ?? emptyBody(), () => undefined));
}

async function floorR2Put(request: Request, url: URL, env: IngestWorkerEnv): Promise<Response> {
  const name = url.searchParams.get("name") ?? "bench";
  const inFlight: Promise<unknown>[] = [];
  const keys: string[] = [];
  let part = new Uint8Array(PART_BYTES);
  let used = 0;
  const put = async (): Promise<void> => {
    if (inFlight.length === 2) await inFlight.shift();
    const key = `floor/${name}/part-${String(keys.length).padStart(8, "0")}`;
    keys.push(key);
    inFlight.push(env.BUCKET.put(key, part.subarray(0, used)));
    part = new Uint8Array(PART_BYTES);
    used = 0;
  };
  const { bytes, reads } = await readAll(request.body ?? emptyBody(), async (view) => {
    let from = 0;
    while (from < view.length) {
      const take = Math.min(view.length - from, PART_BYTES - used);
      part.set(view.subarray(from, from + take), used);
      used += take;
      from += take;
      if (used === PART_BYTES) await put();
    }
  });
  if (used > 0) await put();
  await Promise.all(inFlight);
  return Response.json({ bytes, reads, keys });
}

/** The file coordinator class `wrangler.toml` binds (the `/drainpipe/r2?coordinated=1` route uses it). */
export { FileCoordinator } from "../../src/coordinator/file-coordinator.ts";

export default {
  async fetch(request: Request, env: IngestWorkerEnv): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== "POST") return Response.json({ error: "method-not-allowed" }, { status: 405 });
    try {
      switch (url.pathname) {
        case "/drainpipe/discard":
          return await drainpipeDiscard(request, url);
        case "/drainpipe/r2":
          return await drainpipeR2(request, url, env);
        case "/naive/discard":
          return await naive(request, url, "discard", env);
        case "/naive/r2":
          return await naive(request, url, "r2", env);
        case "/floor/read":
          return await floorRead(request);
        case "/floor/r2-put":
          return await floorR2Put(request, url, env);
        default:
          return Response.json({ error: "not-found" }, { status: 404 });
      }
    } catch (error) {
      return Response.json(
        { error: "failed", detail: error instanceof Error ? error.message : String(error) },
        { status: 500 },
      );
    }
  },
};
