import { FileCatalog } from "../files/file-catalog.ts";
import { assertValidName } from "../files/file-name.ts";
import type { Manifest } from "../files/manifest.ts";
import { storeNumbers } from "../files/store-numbers.ts";
import { primeBatchStream } from "../numbers/prime-batch-stream.ts";
import { MAX_PRIME_COUNT } from "../numbers/prime-batches.ts";
import { parseMaxPartBytes } from "../split/part-size.ts";
import { R2Store } from "../store/r2-store.ts";
import type { FileList, RemnantsRemoved, UploadsListing } from "./api-types.ts";
import { BodyDigest, expectedDigest } from "./body-digest.ts";
import { CoordinatedRead } from "./coordinated-read.ts";
import { type AdmittedUpload, coordinatedUpload, wholeFile } from "./coordinated-upload.ts";
import type { DrainpipeEnv } from "./env.ts";
import { HttpError } from "./http-error.ts";
import type { Route } from "./router.ts";
import { sessionRoutes } from "./session-routes.ts";
import type { Settings } from "./settings.ts";
import { storeRequestBody } from "./store-request-body.ts";
import { sweepBucket } from "./sweep-bucket.ts";

/** The request header in which a client names its attempt, to find it again in `GET /files/:name/uploads`. */
export const ATTEMPT_HEADER = "Drainpipe-Attempt";

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
 * import { CoordinatedRead } from "./coordinated-read.ts";
import { type AdmittedUpload, coordinatedUpload, wholeFile } from "./coordinated-upload.ts";
import type { DrainpipeEnv } from "./env.ts";
 * import { createRouter } from "./router.ts";
 * import { readSettings } from "./settings.ts";
 * declare const env: DrainpipeEnv;
 * const handle = createRouter(fileRoutes(env, readSettings(env)));
 * ```
 */
export function fileRoutes(env: DrainpipeEnv, settings: Settings): Route[] {
  const store = new R2Store(env.BUCKET);
  const catalog = new FileCatalog(store);
  const { defaultMaxPartBytes, maxUploadBytes, maxUploadNumbers, leaseMs } = settings;

  /** The request's `maxPartBytes` query parameter, or the configured default. */
  const maxPartBytes = (url: URL): number =>
    parseMaxPartBytes(url.searchParams.get("maxPartBytes"), defaultMaxPartBytes);

  /** The coordinator of a valid file name. */
  const coordinators = env.COORDINATOR;
  const coordinatorOf = (name: string) => coordinators.getByName(assertValidName(name));

  /** Admits an upload of `name` with the coordinator and runs it. */
  const upload = async (request: Request, name: string, run: (admitted: AdmittedUpload) => Promise<Manifest>) => {
    const coordinator = coordinatorOf(name);
    const clientToken = request.headers.get(ATTEMPT_HEADER) ?? "";
    const admission = wholeFile(coordinator, name, leaseMs, clientToken);
    return (await coordinatedUpload({ coordinator, name, leaseMs, store, admission }, run))!;
  };

  /** Opens a read of the current version of `name`, or answers 404. */
  const openRead = async (name: string): Promise<CoordinatedRead> => {
    const read = await CoordinatedRead.open(coordinatorOf(name), leaseMs);
    if (!read) throw new HttpError(404, "not-found", `No file named "${name}"`);
    return read;
  };

  const routes: Route[] = [
    {
      method: "POST",
      pattern: "/files/:name",
      handler: async (request, { name }, url) => {
        const partBytes = maxPartBytes(url);
        const expected = expectedDigest(request.headers.get("Content-Digest"));
        const digest = expected === undefined ? undefined : new BodyDigest();
        const manifest = await upload(request, name!, (admitted) =>
          storeRequestBody(request, {
            ...admitted,
            publish: async (complete) => {
              if (digest && complete.source.kind === "upload") complete.source.digest = await digest.check(expected);
              await admitted.publish(complete);
            },
            name: name!,
            maxPartBytes: partBytes,
            maxUploadBytes,
            maxNumbers: maxUploadNumbers,
            through: digest?.stage,
          }),
        );
        return Response.json(manifest, { status: 201 });
      },
    },
    {
      method: "POST",
      pattern: "/files/:name/primes",
      handler: async (request, { name }, url) => {
        const partBytes = maxPartBytes(url);
        const count = parseCount(url.searchParams.get("count"), Math.min(MAX_PRIME_COUNT, maxUploadNumbers));
        const manifest = await upload(request, name!, (admitted) =>
          storeNumbers(primeBatchStream(count), {
            ...admitted,
            highWaterMark: 2,
            name: name!,
            maxPartBytes: partBytes,
            source: () => ({ kind: "primes", count }),
          }),
        );
        return Response.json(manifest, { status: 201 });
      },
    },
    {
      method: "GET",
      pattern: "/files",
      handler: async () => Response.json({ files: await catalog.list() } satisfies FileList),
    },
    {
      method: "GET",
      pattern: "/files/:name",
      handler: async (_request, { name }) => {
        const manifest = await catalog.manifest(name!);
        if (!manifest) throw new HttpError(404, "not-found", `No file named "${name}"`);
        return Response.json(manifest);
      },
    },
    {
      method: "GET",
      pattern: "/files/:name/uploads",
      handler: async (_request, { name }) => {
        const status = await coordinatorOf(name!).status();
        // A segment's write in flight shows under its session.
        const uploads = status.uploads
          .filter((attempt) => attempt.sessionId === null)
          .map((attempt) => ({
            uploadId: attempt.uploadId,
            state: attempt.state,
            startedAt: new Date(attempt.startedAt).toISOString(),
            leaseExpiresAt: new Date(attempt.leaseUntil).toISOString(),
            attempt: attempt.clientToken === "" ? null : attempt.clientToken,
          }));
        const sessions = (await coordinatorOf(name!).openSessions()).map((session) => ({
          uploadId: session.sessionId,
          createdAt: new Date(session.createdAt).toISOString(),
          expiresAt: new Date(session.expiresAt).toISOString(),
          segments: session.segments.length,
        }));
        const listing: UploadsListing = {
          name: name!,
          current: status.current,
          uploads,
          sessions,
          reads: status.reads,
        };
        return Response.json(listing);
      },
    },
    {
      method: "GET",
      pattern: "/files/:name/parts/:index",
      handler: async (_request, { name, index }, _url, ctx) => {
        const read = await openRead(name!);
        try {
          const { manifest } = read;
          const position = /^[0-9]+$/.test(index!) ? Number(index) : Number.NaN;
          const record = manifest.parts[position];
          if (!record) {
            throw new HttpError(
              404,
              "not-found",
              `No part "${index}" in "${name}": it has ${manifest.parts.length} parts (0-based)`,
            );
          }
          const part = await store.get(record.key);
          if (!part) throw new Error(`Cannot read part ${position} of "${name}": its object is missing`);
          const { readable, writable } = new FixedLengthStream(part.size);
          ctx.waitUntil(
            part.body
              .pipeTo(writable)
              .catch(() => undefined)
              .finally(() => read.release()),
          );
          return new Response(readable, {
            headers: {
              "Content-Type": "text/plain; charset=utf-8",
              "Content-Length": String(part.size),
              ETag: `"${part.etag}"`,
            },
          });
        } catch (error) {
          ctx.waitUntil(read.release());
          throw error;
        }
      },
    },
    {
      method: "GET",
      pattern: "/files/:name/content",
      handler: async (_request, { name }, _url, ctx) => {
        const read = await openRead(name!);
        const { manifest } = read;
        const { readable, writable } = new FixedLengthStream(manifest.totals.bytes);
        ctx.waitUntil(
          catalog
            .pipeContent(manifest, writable)
            .catch(() => undefined)
            .finally(() => read.release()),
        );
        return new Response(readable, {
          headers: {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": String(manifest.totals.bytes),
            ETag: `"${manifest.uploadId}"`,
          },
        });
      },
    },
    {
      method: "DELETE",
      pattern: "/files/:name",
      handler: async (_request, { name }) => {
        const { existed, remnants } = await coordinatorOf(name!).remove();
        if (existed) return new Response(null, { status: 204 });
        if (remnants > 0) return Response.json({ name: name!, removed: false, remnants } satisfies RemnantsRemoved);
        throw new HttpError(404, "not-found", `No file named "${name}"`);
      },
    },
    {
      method: "POST",
      pattern: "/sweep",
      handler: async () => Response.json(await sweepBucket(store, (name) => coordinatorOf(name).sweep())),
    },
  ];
  return [...routes, ...sessionRoutes({ store, coordinatorOf, maxPartBytes, settings })];
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
