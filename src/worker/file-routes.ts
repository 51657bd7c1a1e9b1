import { FileCatalog } from "../files/file-catalog.ts";
import type { Manifest } from "../files/manifest.ts";
import { storeNumbers } from "../files/store-numbers.ts";
import { primeBatchStream } from "../numbers/prime-batch-stream.ts";
import { MAX_PRIME_COUNT } from "../numbers/prime-batches.ts";
import { parseMaxPartBytes } from "../split/part-size.ts";
import { R2Store } from "../store/r2-store.ts";
import type { DrainpipeEnv } from "./env.ts";
import { HttpError } from "./http-error.ts";
import type { Route } from "./router.ts";
import type { Settings } from "./settings.ts";
import { storeRequestBody } from "./store-request-body.ts";

/**
 * The worker's HTTP API over the files in `env.BUCKET`:
 *
 * | route | does |
 * | --- | --- |
 * | `POST /files/:name?maxPartBytes=N` | stores the body's numbers; 201 with the manifest |
 * | `POST /files/:name/primes?count=N` | generates the first N primes and stores them; 201 with the manifest |
 * | `GET /files` | lists complete files |
 * | `GET /files/:name` | the manifest |
 * | `GET /files/:name/parts/:index` | one part |
 * | `GET /files/:name/content` | all parts reassembled, streamed |
 * | `DELETE /files/:name` | removes the file; 204 |
 *
 * @example
 * ```ts
 * import type { DrainpipeEnv } from "./env.ts";
 * import { createRouter } from "./router.ts";
 * import { readSettings } from "./settings.ts";
 * declare const env: DrainpipeEnv;
 * const handle = createRouter(fileRoutes(env, readSettings(env)));
 * ```
 */
export function fileRoutes(env: DrainpipeEnv, settings: Settings): Route[] {
  const store = new R2Store(env.BUCKET);
  const catalog = new FileCatalog(store);
  const { defaultMaxPartBytes, maxUploadBytes, maxUploadNumbers } = settings;

  /** The request's `maxPartBytes` query parameter, or the configured default. */
  const maxPartBytes = (url: URL): number =>
    parseMaxPartBytes(url.searchParams.get("maxPartBytes"), defaultMaxPartBytes);

  const existingManifest = async (name: string): Promise<Manifest> => {
    const manifest = await catalog.manifest(name);
    if (!manifest) throw new HttpError(404, "not-found", `No file named "${name}"`);
    return manifest;
  };

  return [
    {
      method: "POST",
      pattern: "/files/:name",
      handler: async (request, { name }, url) => {
        const manifest = await storeRequestBody(request, {
          store,
          name: name!,
          maxPartBytes: maxPartBytes(url),
          maxUploadBytes,
          maxNumbers: maxUploadNumbers,
        });
        return Response.json(manifest, { status: 201 });
      },
    },
    {
      method: "POST",
      pattern: "/files/:name/primes",
      handler: async (_request, { name }, url) => {
        const count = parseCount(url.searchParams.get("count"), Math.min(MAX_PRIME_COUNT, maxUploadNumbers));
        const manifest = await storeNumbers(primeBatchStream(count), {
          highWaterMark: 2,
          store,
          name: name!,
          maxPartBytes: maxPartBytes(url),
          source: () => ({ kind: "primes", count }),
        });
        return Response.json(manifest, { status: 201 });
      },
    },
    {
      method: "GET",
      pattern: "/files",
      handler: async () => Response.json({ files: await catalog.list() }),
    },
    {
      method: "GET",
      pattern: "/files/:name",
      handler: async (_request, { name }) => Response.json(await existingManifest(name!)),
    },
    {
      method: "GET",
      pattern: "/files/:name/parts/:index",
      handler: async (_request, { name, index }) => {
        const manifest = await existingManifest(name!);
        const position = /^[0-9]+$/.test(index!) ? Number(index) : Number.NaN;
        const record = manifest.parts[position];
        if (!record) {
          throw new HttpError(
            404,
            "not-found",
            `No part "${index}" in "${name}": it has ${manifest.parts.length} parts (0-based)`,
          );
        }
        const part = await catalog.part(name!, position);
        if (!part) throw new HttpError(404, "not-found", `Part ${position} of "${name}" no longer exists`);
        return new Response(part.body, {
          headers: {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": String(part.size),
            ETag: `"${part.etag}"`,
          },
        });
      },
    },
    {
      method: "GET",
      pattern: "/files/:name/content",
      handler: async (_request, { name }) => {
        const manifest = await existingManifest(name!);
        const { readable, writable } = new FixedLengthStream(manifest.totals.bytes);
        catalog.pipeContent(manifest, writable).catch(() => undefined);
        return new Response(readable, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
      },
    },
    {
      method: "DELETE",
      pattern: "/files/:name",
      handler: async (_request, { name }) => {
        if (!(await catalog.remove(name!))) throw new HttpError(404, "not-found", `No file named "${name}"`);
        return new Response(null, { status: 204 });
      },
    },
  ];
}

function parseCount(text: string | null, max: number): number {
  const count = text !== null && /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < 1 || count > max) {
    throw new HttpError(
      400,
      "invalid-count",
      `Cannot generate ${text ?? "an unspecified number of"} primes: expected count from 1 to ${max}`,
    );
  }
  return count;
}
