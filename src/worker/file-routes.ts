import type { Manifest } from "../files/manifest.ts";
import { sliceParts, wholeParts } from "../files/part-slices.ts";
import { storeNumbers } from "../files/store-numbers.ts";
import type { FileList, RemnantsRemoved, UploadsListing } from "../http-contract/bodies.ts";
import { ATTEMPT_HEADER } from "../http-contract/headers.ts";
import { primeBatchStream } from "../numbers/prime-batch-stream.ts";
import { MAX_PRIME_COUNT } from "../numbers/prime-batches.ts";
import { parseMaxPartBytes } from "../split/part-size.ts";
import type { ReadableStream } from "../streams/engine/readable-stream.ts";
import { TransformStream } from "../streams/engine/transform-stream.ts";
import { BodyDigest, expectedDigest } from "./body-digest.ts";
import { CoordinatedRead, withReadLease } from "./coordinated-read.ts";
import { type AdmittedUpload, coordinatedUpload, wholeFile } from "./coordinated-upload.ts";
import { HttpError } from "./http-error.ts";
import { limitsRoute } from "./limits-route.ts";
import { lineRoutes } from "./line-routes.ts";
import { readDecision } from "./read-preconditions.ts";
import { bytesResponse, rangeToSend, readRefusal } from "./read-response.ts";
import {
  budgetUpload,
  contentReadStrategy,
  listingPageSize,
  primeTextBytes,
  READ_CALLS,
  sweepStepSize,
} from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import { type Route, routeBuilder } from "./router.ts";
import { sessionRoutes } from "./session-routes.ts";
import type { Settings } from "./settings.ts";
import { pipeSlicedContent } from "./sliced-content.ts";
import { type ByteStage, storeRequestBody } from "./store-request-body.ts";
import { sweepBucket } from "./sweep-bucket.ts";
import { tusRoutes } from "./tus-routes.ts";
import { uploadFailure, uploadForm } from "./upload-form.ts";
import { declaredLength } from "./upload-limits.ts";
import { validatorHeaders } from "./validators.ts";
import { preconditionFailed, writeCondition } from "./write-preconditions.ts";

const route = routeBuilder<RequestScope>();

/** Longest accepted {@linkcode ATTEMPT_HEADER}: it is stored with the attempt and shown in listings. */
export const MAX_ATTEMPT_LENGTH = 128;

/**
 * The worker's HTTP API over the files in `env.BUCKET`:
 *
 * | route | does |
 * | --- | --- |
 * | `POST /files/:name?maxPartBytes=N` | stores the body's numbers; 201 with the manifest |
 * | `POST /files/:name/primes?count=N` | generates the first N primes and stores them; 201 with the manifest |
 * | `GET /files?limit=N&cursor=C` | lists complete files, a page at a time; `{ files, cursor }` |
 * | `GET /files/:name` | the manifest |
 * | `GET /files/:name/uploads` | the name's uploads in flight, open sessions and reads |
 * | `GET /files/:name/parts/:index` | one part, or a byte range of it (206) |
 * | `GET /files/:name/content` | all parts reassembled, streamed, or a byte range of them (206) |
 * | `GET /files/:name/lines?from=I&count=N` | lines I … I + N − 1 as text (see `lineRoutes`) |
 * | `GET /files/:name/search?value=V` | the first line whose number is at least V (see `lineRoutes`) |
 * | `DELETE /files/:name` | removes the file; 204 (a name with only leftovers of dead uploads: 200 `{ remnants }`) |
 *
 * Each route declares beside its pattern who may call it (`read`, or `write`, which always needs the token; see
 * `authorize.ts`), and a read holds its version with `withReadLease` (`coordinated-read.ts`).
 * Reads carry the version's `ETag` and `Last-Modified` and honour the conditional headers (`read-preconditions.ts`);
 * `POST` and `DELETE` take `If-Match` and `If-None-Match`, decided by the coordinator (`write-preconditions.ts`).
 * | `POST /sweep?cursor=C` | removes objects nothing refers to, one bounded step; `{ names, removed, cursor }` |
 *
 * and the upload-session routes of {@linkcode sessionRoutes} (`/files/:name/uploads…`), the tus routes of
 * {@linkcode tusRoutes} (`/tus…`, whose upload URLs start with `prefix`, the path the API is mounted under), and
 * `GET /limits` ({@linkcode limitsRoute}).
 *
 * @example
 * ```ts
 * import type { DrainpipeEnv } from "./env.ts";
 * import { requestScope } from "./request-scope.ts";
 * import { createRouter } from "./router.ts";
 * import { readSettings } from "./settings.ts";
 * declare const env: DrainpipeEnv;
 * declare const ctx: ExecutionContext;
 * const settings = readSettings(env);
 * const find = createRouter(fileRoutes(settings));
 * const routed = find(new Request("https://example.com/files")); // routed.access: "read"
 * const response = await routed.answer(ctx, requestScope(env, settings.subrequests));
 * ```
 */
export function fileRoutes(settings: Settings, { prefix = "" }: { prefix?: string } = {}): Route<RequestScope>[] {
  const { defaultMaxPartBytes, maxUploadBytes, maxUploadNumbers, leaseMs, readGraceMs, bodyPace } = settings;
  const readTerms = { leaseMs, graceMs: readGraceMs };

  /** The request's `maxPartBytes` query parameter, or the configured default. */
  const maxPartBytes = (url: URL): number =>
    parseMaxPartBytes(url.searchParams.get("maxPartBytes"), defaultMaxPartBytes);

  /** Admits an upload of `name` with the coordinator and runs it. */
  const upload = async (
    request: Request,
    name: string,
    scope: RequestScope,
    run: (admitted: AdmittedUpload) => Promise<Manifest>,
  ) => {
    const coordinator = scope.coordinatorOf(name);
    const clientToken = attemptToken(request);
    const admission = wholeFile(coordinator, name, readTerms, clientToken, writeCondition(request));
    const { store, budget } = scope;
    return (await coordinatedUpload({ coordinator, name, leaseMs, store, budget, admission }, run))!;
  };

  /** Opens a read of the current version of `name`, or answers 404. */
  const openRead = async (name: string, scope: RequestScope): Promise<CoordinatedRead<Manifest>> => {
    const read = await CoordinatedRead.open(scope.coordinatorOf(name), readTerms);
    if (!read) throw new HttpError(404, "not-found", `No file named "${name}"`);
    return read;
  };

  const routes: Route<RequestScope>[] = [
    route("POST", "/files/:name", "write", async ({ request, params: { name }, url, scope }) => {
      const partBytes = maxPartBytes(url);
      const expected = expectedDigest(request.headers.get("Content-Digest"));
      const type = request.headers.get("Content-Type");
      const form = uploadForm(type);
      budgetUpload(scope.budget, declaredLength(request, maxUploadBytes), partBytes);
      const digest = expected === undefined ? undefined : new BodyDigest();
      // The digest is of the body as sent (a form's too); the form stage passes on its file's bytes.
      const stages: ByteStage[] = [];
      if (digest) stages.push(digest.stage);
      if (form) stages.push(form);
      const manifest = await upload(request, name, scope, (admitted) =>
        storeRequestBody(request, {
          ...admitted,
          publish: async (complete) => {
            if (digest && complete.source.kind === "upload") complete.source.digest = await digest.check(expected);
            await admitted.publish(complete);
          },
          name,
          maxPartBytes: partBytes,
          maxUploadBytes,
          maxNumbers: maxUploadNumbers,
          pace: bodyPace,
          through: stages,
        }),
      ).catch((error: unknown) => {
        throw uploadFailure(error, type);
      });
      return Response.json(manifest, { status: 201, headers: validatorHeaders(manifest) });
    }),
    route("POST", "/files/:name/primes", "write", async ({ request, params: { name }, url, scope }) => {
      const partBytes = maxPartBytes(url);
      const count = parseCount(url.searchParams.get("count"), Math.min(MAX_PRIME_COUNT, maxUploadNumbers));
      budgetUpload(scope.budget, primeTextBytes(count), partBytes);
      const manifest = await upload(request, name, scope, (admitted) =>
        storeNumbers(untilAborted(primeBatchStream(count), request.signal), {
          ...admitted,
          highWaterMark: 2,
          name: name,
          maxPartBytes: partBytes,
          source: () => ({ kind: "primes", count }),
        }),
      );
      return Response.json(manifest, { status: 201, headers: validatorHeaders(manifest) });
    }),
    route("GET", "/files", "read", async ({ url, scope }) => {
      const limit = listingPageSize(scope.budget, url.searchParams.get("limit"));
      const cursor = url.searchParams.get("cursor") ?? undefined;
      const page = await scope.catalog.listPage({ limit, ...(cursor === undefined ? {} : { cursor }) });
      return Response.json({ files: page.files, cursor: page.cursor ?? null } satisfies FileList);
    }),
    route("GET", "/files/:name", "read", async ({ request, params: { name }, scope }) => {
      const manifest = await scope.catalog.manifest(name);
      if (!manifest) throw new HttpError(404, "not-found", `No file named "${name}"`);
      if (readDecision(request, name, manifest) === "not-modified") {
        return new Response(null, { status: 304, headers: validatorHeaders(manifest) });
      }
      return Response.json(manifest, { headers: validatorHeaders(manifest) });
    }),
    // The uploads in flight show attempt and session ids, which a client can act on: the token is needed even when
    // reads are public.
    route("GET", "/files/:name/uploads", "write", async ({ params: { name }, scope }) => {
      const coordinator = scope.coordinatorOf(name);
      const status = await coordinator.status();
      // A segment's write in flight shows under its session.
      const uploads = status.uploads
        .filter((attempt) => attempt.sessionId === null)
        .map((attempt) => ({
          attemptId: attempt.uploadId,
          state: attempt.state,
          startedAt: new Date(attempt.startedAt).toISOString(),
          leaseExpiresAt: new Date(attempt.leaseUntil).toISOString(),
          attempt: attempt.clientToken === "" ? null : attempt.clientToken,
        }));
      const sessions = (await coordinator.openSessions()).map((session) => ({
        sessionId: session.sessionId,
        createdAt: new Date(session.createdAt).toISOString(),
        expiresAt: new Date(session.expiresAt).toISOString(),
        segments: session.segments.length,
        writing: status.uploads.filter((attempt) => attempt.sessionId === session.sessionId).length,
      }));
      const listing: UploadsListing = {
        name: name,
        current: status.current,
        uploads,
        sessions,
        reads: status.reads,
      };
      return Response.json(listing);
    }),
    route("GET", "/files/:name/parts/:index", "read", async ({ request, params: { name, index }, ctx, scope }) => {
      scope.budget.check(READ_CALLS + 1, `read part ${index} of "${name}"`, "try again in a new request");
      const position = /^[0-9]{1,9}$/.test(index) ? Number(index) : -1;
      const read = await CoordinatedRead.openPart(scope.coordinatorOf(name), position, readTerms);
      if (!read) throw new HttpError(404, "not-found", `No file named "${name}"`);
      if (!(read instanceof CoordinatedRead)) {
        throw new HttpError(404, "not-found", `No part "${index}" in "${name}": it has ${read.parts} parts (0-based)`);
      }
      return withReadLease(read, ctx, async (lease) => {
        const { part, version } = lease.subject;
        const filename = `${name}.part-${position}`;
        const range = rangeToSend(request, `${name}/parts/${position}`, version, part.bytes, filename);
        if (range instanceof Response) return range;
        const object = await (range === null ? scope.store.get(part.key) : scope.store.get(part.key, range)).catch(
          (error: unknown) => {
            throw readRefusal(error, `read part ${position} of "${name}"`, settings);
          },
        );
        if (!object) throw new Error(`Cannot read part ${position} of "${name}": its object is missing`);
        const { readable, writable } = new FixedLengthStream(range?.length ?? part.bytes);
        lease.holdUntil(object.body.pipeTo(writable, { signal: lease.signal }));
        return bytesResponse(readable, version, part.bytes, range, filename);
      });
    }),
    route("GET", "/files/:name/content", "read", async ({ request, params: { name }, ctx, scope }) => {
      return withReadLease(await openRead(name, scope), ctx, async (lease) => {
        const manifest = lease.subject;
        const size = manifest.totals.bytes;
        const range = rangeToSend(request, name, manifest, size, name);
        if (range instanceof Response) return range;
        const slices =
          range === null ? wholeParts(manifest.parts) : sliceParts(manifest.parts, range.offset, range.length);
        const strategy = contentReadStrategy(scope.budget, manifest, slices.length, settings.subrequests);
        const { readable, writable } = new FixedLengthStream(range?.length ?? size);
        let started = () => {};
        const opened = new Promise<void>((resolve) => {
          started = resolve;
        });
        const piping =
          strategy === "direct"
            ? scope.catalog.pipeSlices(name, slices, writable, lease.signal, started)
            : pipeSlicedContent(scope.coordinatorOf(name), slices, strategy, writable, lease.signal, started);
        lease.holdUntil(piping);
        // The headers wait for the first part: a read refused before its first byte is answered with an error
        // status; one that fails later errors the body, whose declared length then never completes.
        await Promise.race([opened, piping]).catch((error: unknown) => {
          throw readRefusal(error, `read the content of "${name}"`, settings);
        });
        return bytesResponse(readable, manifest, size, range, name);
      });
    }),
    route("DELETE", "/files/:name", "write", async ({ request, params: { name }, scope }) => {
      const removal = await scope.coordinatorOf(name).remove(readGraceMs, writeCondition(request));
      if ("reason" in removal) throw preconditionFailed(`remove "${name}"`, name, removal.current);
      const { existed, remnants } = removal;
      if (existed) return new Response(null, { status: 204 });
      if (remnants > 0) return Response.json({ name: name, removed: false, remnants } satisfies RemnantsRemoved);
      throw new HttpError(404, "not-found", `No file named "${name}"`);
    }),
    route("POST", "/sweep", "write", async ({ url, scope: { store, ownerOf, budget } }) => {
      const limit = sweepStepSize(budget);
      const cursor = url.searchParams.get("cursor") ?? undefined;
      return Response.json(await sweepBucket(store, (name) => ownerOf(name).sweep(), { cursor, limit }));
    }),
  ];
  return [
    ...routes,
    ...lineRoutes(openRead),
    ...sessionRoutes({ maxPartBytes, settings }),
    ...tusRoutes({ settings, prefix }),
    limitsRoute(settings),
  ];
}

/**
 * The client's attempt token from {@linkcode ATTEMPT_HEADER}, or `""`.
 *
 * @throws {HttpError} `431 header-too-large` past {@linkcode MAX_ATTEMPT_LENGTH} characters.
 */
function attemptToken(request: Request): string {
  const token = request.headers.get(ATTEMPT_HEADER) ?? "";
  if (token.length > MAX_ATTEMPT_LENGTH) {
    throw new HttpError(
      431,
      "header-too-large",
      `Cannot accept ${ATTEMPT_HEADER}: it has ${token.length} characters, at most ${MAX_ATTEMPT_LENGTH} are stored`,
    );
  }
  return token;
}

/**
 * `stream`, errored with `signal`'s reason once the client that asked for it goes away, so that generated work
 * stops with the request (and its upload is cleaned up) instead of running on for nobody.
 */
function untilAborted<T>(stream: ReadableStream<T>, signal: AbortSignal): ReadableStream<T> {
  return stream.pipeThrough(new TransformStream<T, T>(), { signal });
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
