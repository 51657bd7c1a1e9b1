/**
 * A bench-only worker (never deployed) for scenarios 4, 5 and 7. It runs drainpipe's ingest pipeline, the naive
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
 * - `POST /fused/discard`: the same reads, each run through the fused loop ({@linkcode FusedSplit}) into a
 *   {@linkcode DiscardingStore} (the body must be canonical);
 * - `POST /floor/r2-put?name=N`: the same reads gathered into 10 MiB buffers, each `put` to R2 (at most two in
 *   flight);
 * - `POST /held/input[?input=I]`: keeps the body in this isolate's memory as the held input named I (default
 *   `canonical`; answering its size and SHA-256), for the next route;
 * - `POST /held/run?variant=V[&input=I][&maxPartBytes=N][&digests=1]`: runs one variant over the held input I,
 *   fed in 64 KiB chunks (no HTTP body involved), into a {@linkcode DiscardingStore}, and answers the stored parts
 *   in order, the bytes it read and the variant's time by the worker's clock: `read` (reads the byte stream below
 *   with `{ min: 1 MiB }` reads and nothing else: the floor), `fused` ({@linkcode fusedSplit}), `per-number`
 *   ({@linkcode splitPerNumber}), `batch` ({@linkcode splitBatch}) or `ingest` (the pipeline of
 *   `/drainpipe/discard`, its request's body a byte stream serving the held chunks).
 *
 * Every route answers JSON describing what it did, so the caller can check it.
 *
 * @module
 */

import { type DiscardedObject, DiscardingStore, sha256 } from "../../harness/discarding-store.ts";
import type { FileCoordinator } from "../../src/coordinator/file-coordinator.ts";
import type { Manifest } from "../../src/files/manifest.ts";
import { parseMaxPartBytes } from "../../src/split/part-size.ts";
import { PartSplitter } from "../../src/split/part-splitter.ts";
import type { R2BucketLike } from "../../src/store/r2-store.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { DEFAULT_CHUNK_SIZE } from "../../src/streams/index.ts";
import { coordinatedUpload, wholeFile } from "../../src/worker/coordinated-upload.ts";
import { storeRequestBody } from "../../src/worker/store-request-body.ts";
import { chunksOf, FILE_CHUNK_BYTES } from "../workloads/byte-chunks.ts";
import { FusedSplit, fusedSplit } from "../workloads/fused-split.ts";
import { naiveIngest } from "../workloads/naive-ingest.ts";
import { splitBatch, splitPerNumber } from "../workloads/number-pipelines.ts";

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

/** The real upload route's pipeline over `request`'s body into `store`, with limits that are never reached. */
function discardUpload(request: Request, store: DiscardingStore, maxPartBytes = PART_BYTES): Promise<Manifest> {
  return storeRequestBody(request, {
    store,
    name: "bench",
    maxPartBytes,
    maxUploadBytes: NO_LIMIT,
    maxNumbers: NO_LIMIT,
  });
}

async function drainpipeDiscard(request: Request, url: URL): Promise<Response> {
  const store = new DiscardingStore({ digests: url.searchParams.get("digests") === "1" });
  const manifest = await discardUpload(request, store);
  return Response.json({ manifest, objects: store.objects });
}

async function drainpipeR2(request: Request, url: URL, env: IngestWorkerEnv): Promise<Response> {
  const name = url.searchParams.get("name") ?? "bench";
  const store = new R2Store(env.BUCKET);
  const options = { name, maxPartBytes: PART_BYTES, maxUploadBytes: NO_LIMIT, maxNumbers: NO_LIMIT };
  const coordinator = env.COORDINATOR.getByName(name);
  const admission = wholeFile(coordinator, name, { leaseMs: LEASE_MS, graceMs: LEASE_MS }, "");
  const manifest =
    url.searchParams.get("coordinated") === "1"
      ? await coordinatedUpload({ coordinator, name, leaseMs: LEASE_MS, store, admission }, (admitted) =>
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

async function fusedDiscard(request: Request): Promise<Response> {
  const split = new FusedSplit(new DiscardingStore(), "fused/", PART_BYTES);
  const { bytes } = await readAll(request.body ?? emptyBody(), (view) => split.push(view));
  return Response.json({ bytes, keys: await split.end() });
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

/**
 * The inputs of `/held/run` by name, in 64 KiB chunks: kept in this isolate's memory from the last `/held/input`
 * of each name (module state lives as long as the isolate, which locally serves every request until workerd
 * restarts).
 */
const heldInputs = new Map<string, Uint8Array[]>();

async function heldInput(request: Request, url: URL): Promise<Response> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  heldInputs.set(url.searchParams.get("input") ?? "canonical", chunksOf(bytes));
  return Response.json({ bytes: bytes.length, sha256: await sha256(bytes) });
}

/**
 * A byte stream serving `chunks` as a socket serves a request body: each pull copies at most one chunk into the
 * reader's buffer.
 */
function heldBody(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  let rest: Uint8Array = new Uint8Array(0);
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: FILE_CHUNK_BYTES,
    pull(controller) {
      if (rest.length === 0) rest = chunks[next++] ?? rest;
      const request = controller.byobRequest!;
      if (rest.length === 0) {
        controller.close();
        request.respond(0);
        return;
      }
      const view = request.view!;
      const size = Math.min(rest.length, view.byteLength);
      new Uint8Array(view.buffer, view.byteOffset, size).set(rest.subarray(0, size));
      rest = rest.subarray(size);
      request.respond(size);
    },
  });
}

/**
 * The variants of `/held/run`: each splits `chunks` into `store` and resolves the part keys in order, except
 * `read`, which only reads them and resolves how many bytes it read.
 */
const HELD_VARIANTS: Record<
  string,
  (chunks: readonly Uint8Array[], store: DiscardingStore, maxPartBytes: number) => Promise<string[] | number>
> = {
  read: async (chunks) => (await readAll(heldBody(chunks), () => undefined)).bytes,
  fused: (chunks, store, maxPartBytes) => fusedSplit(chunks, store, "bench/fused/", maxPartBytes),
  "per-number": (chunks, store, maxPartBytes) =>
    splitPerNumber(chunks, new PartSplitter({ store, name: "bench", uploadId: "per-number", maxPartBytes })),
  batch: (chunks, store, maxPartBytes) =>
    splitBatch(chunks, new PartSplitter({ store, name: "bench", uploadId: "batch", maxPartBytes })),
  async ingest(chunks, store, maxPartBytes) {
    const request = new Request("http://held/", { method: "POST", body: heldBody(chunks) });
    return (await discardUpload(request, store, maxPartBytes)).parts.map((part) => part.key);
  },
};

async function heldRun(url: URL): Promise<Response> {
  const name = url.searchParams.get("variant") ?? "";
  const variant = HELD_VARIANTS[name];
  if (!variant) return Response.json({ error: "unknown-variant", detail: `no variant "${name}"` }, { status: 400 });
  const heldChunks = heldInputs.get(url.searchParams.get("input") ?? "canonical");
  if (!heldChunks) return Response.json({ error: "no-input", detail: "POST /held/input first" }, { status: 409 });
  const maxPartBytes = parseMaxPartBytes(url.searchParams.get("maxPartBytes"), PART_BYTES);
  const store = new DiscardingStore({ digests: url.searchParams.get("digests") === "1" });
  const start = performance.now();
  const result = await variant(heldChunks, store, maxPartBytes);
  const ms = performance.now() - start;
  if (typeof result === "number") return Response.json({ ms, objects: [], read: result });
  const keys = result;
  const byKey = new Map(store.objects.map((object) => [object.key, object]));
  const objects = keys.map((key): DiscardedObject => {
    const object = byKey.get(key);
    if (!object) throw new Error(`Cannot answer: part "${key}" was never stored`);
    return object;
  });
  return Response.json({ ms, objects });
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
        case "/fused/discard":
          return await fusedDiscard(request);
        case "/held/input":
          return await heldInput(request, url);
        case "/held/run":
          return await heldRun(url);
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
