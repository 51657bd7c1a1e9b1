/**
 * Upload sessions: a file of any size sent as segments, each its own request (under the plan's body limit),
 * in any order and at the same time, resumable, then completed into one version.
 *
 * | route | does |
 * | --- | --- |
 * | `POST /files/:name/uploads?maxPartBytes=N` | opens a session; `201 { sessionId, segmentMaxBytes, expiresAt, … }` |
 * | `PUT /files/:name/uploads/:sessionId/segments/:index` | stores segment `index` (0 … 9,999); `201` summary |
 * | `GET /files/:name/uploads/:sessionId` | the session with every received segment's summary |
 * | `POST /files/:name/uploads/:sessionId/complete` | `{ "segments": N }`: publishes the file; `201` manifest |
 * | `DELETE /files/:name/uploads/:sessionId` | aborts the session, removing what it wrote; `204` |
 *
 * @module
 */
import { MAX_OPEN_SESSIONS, type SessionView } from "../coordinator/sessions.ts";
import { type SegmentSummary, summarizeSegment } from "../files/segment-summary.ts";
import type {
  CompleteSessionRequest,
  SegmentReceipt,
  SessionDescription,
  SessionWithSegments,
} from "../http-contract/bodies.ts";
import type { ReadPace } from "../streams/adapters/read-pace.ts";
import { BodyDigest, expectedDigest } from "./body-digest.ts";
import { type Admission, coordinatedUpload } from "./coordinated-upload.ts";
import { HttpError, toHttpError } from "./http-error.ts";
import { readJsonBody } from "./json-body.ts";
import { leaseLost } from "./leased-store.ts";
import { budgetUpload, largestUpload } from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import { type Route, routeBuilder } from "./router.ts";
import type { Settings } from "./settings.ts";
import { storeRequestBody } from "./store-request-body.ts";
import { declaredLength } from "./upload-limits.ts";
import { validatorHeaders } from "./validators.ts";
import { preconditionFailed, writeCondition } from "./write-preconditions.ts";

const route = routeBuilder<RequestScope>();

/** Most segments in one session. */
export const MAX_SEGMENTS = 10_000;

/** Coordinator calls a segment write makes before it budgets its parts: the look-up of its session. */
const SEGMENT_LOOKUP_CALLS = 1;

/** Largest accepted body of a completion (`{ "segments": N }`), in bytes. */
export const MAX_COMPLETION_BYTES = 1024;

/** What the session routes share with the file routes. */
export interface SessionRouteContext {
  /** The request's `maxPartBytes` query parameter, or the configured default. */
  maxPartBytes: (url: URL) => number;
  /** The worker's settings. */
  settings: Settings;
}

/**
 * The routes of upload sessions.
 *
 * @example
 * ```ts
 * import { createRouter } from "./router.ts";
 * declare const context: SessionRouteContext;
 * const handle = createRouter(sessionRoutes(context));
 * ```
 */
export function sessionRoutes(context: SessionRouteContext): Route<RequestScope>[] {
  const { settings } = context;
  const { leaseMs, maxSegmentBytes, maxUploadBytes, maxUploadNumbers, uploadTtlMs, bodyPace } = settings;

  const noSession = (name: string, sessionId: string) =>
    new HttpError(404, "no-such-upload", `No open upload session "${sessionId}" of "${name}"`);

  const openSession = async (scope: RequestScope, name: string, sessionId: string): Promise<SessionView> => {
    const session = await scope.coordinatorOf(name).session(sessionId);
    if (session?.state !== "open") throw noSession(name, sessionId);
    return session;
  };

  const describe = (name: string, session: SessionView): SessionDescription => ({
    sessionId: session.sessionId,
    name,
    state: session.state,
    maxPartBytes: session.maxPartBytes,
    segmentMaxBytes: Math.min(
      maxSegmentBytes,
      largestUpload(settings.subrequests - SEGMENT_LOOKUP_CALLS, session.maxPartBytes),
    ),
    createdAt: new Date(session.createdAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
  });

  return [
    route("POST", "/files/:name/uploads", "write", async ({ params: { name }, url, scope }) => {
      const maxPartBytes = context.maxPartBytes(url);
      const session = await scope.coordinatorOf(name).openSession(maxPartBytes, uploadTtlMs);
      if (session === null) {
        throw new HttpError(
          429,
          "too-many-sessions",
          `Cannot open an upload session of "${name}": it has ${MAX_OPEN_SESSIONS} open already; ` +
            "complete or abort one (DELETE /files/:name/uploads/:sessionId), or wait for it to expire",
        );
      }
      return Response.json(describe(name, session), { status: 201 });
    }),
    route("GET", "/files/:name/uploads/:sessionId", "write", async ({ params: { name, sessionId }, scope }) => {
      const session = await scope.coordinatorOf(name).session(sessionId);
      if (!session) throw noSession(name, sessionId);
      const body: SessionWithSegments = { ...describe(name, session), segments: session.segments.map(receipt) };
      return Response.json(body);
    }),
    route(
      "PUT",
      "/files/:name/uploads/:sessionId/segments/:index",
      "write",
      async ({ request, params: { name, sessionId, index }, scope }) => {
        const position = segmentIndex(index);
        const expected = expectedDigest(request.headers.get("Content-Digest"));
        const { store, budget } = scope;
        const coordinator = scope.coordinatorOf(name);
        const session = await openSession(scope, name, sessionId);
        const length = declaredLength(request, maxSegmentBytes);
        if (length !== undefined) refuseOverLimit(name, session, position, length, maxUploadBytes);
        budgetUpload(budget, length, session.maxPartBytes);
        const digest = new BodyDigest();
        let summary: SegmentSummary | undefined;
        const admission: Admission = {
          admit: async () => (await coordinator.beginSegment(sessionId, position, leaseMs))?.uploadId ?? null,
          finish: async (writeId, manifest) => {
            const sha256 = await digest.check(expected);
            summary = summarizeSegment(position, manifest, sha256, digest.endsWithLineBreak);
            const result = await coordinator.acceptSegment(sessionId, position, writeId, summary);
            if (!result.accepted) throw leaseLost(writeId);
          },
        };
        try {
          const options = { coordinator, name: name, leaseMs, store, budget, admission };
          const stored = await coordinatedUpload(options, (admitted) =>
            storeRequestBody(request, {
              ...admitted,
              name: name,
              maxPartBytes: session.maxPartBytes,
              maxUploadBytes: maxSegmentBytes,
              maxNumbers: maxUploadNumbers,
              pace: bodyPace,
              through: [digest.stage],
            }),
          );
          if (stored === null) throw noSession(name, sessionId);
        } catch (error) {
          const refused = toHttpError(error);
          throw new HttpError(refused.status, refused.code, refused.message, {
            cause: error,
            extra: { segment: position, ...refused.extra },
            headers: refused.headers,
          });
        }
        return Response.json(receipt(summary!), { status: 201 });
      },
    ),
    route(
      "POST",
      "/files/:name/uploads/:sessionId/complete",
      "write",
      async ({ request, params: { name, sessionId }, scope }) => {
        const count = await segmentCount(request, bodyPace, maxUploadBytes);
        const limits = { maxBytes: maxUploadBytes, maxNumbers: maxUploadNumbers };
        const condition = writeCondition(request);
        const coordinator = scope.coordinatorOf(name);
        const result = await coordinator.completeSession(sessionId, count, limits, settings.readGraceMs, condition);
        if (result.completed) {
          const headers = { ...JSON_HEADERS, ...validatorHeaders(result.manifest) };
          return Response.json(result.manifest, { status: 201, headers });
        }
        if (result.reason === "not-found") throw noSession(name, sessionId);
        if (result.reason === "precondition-failed") {
          const refused = preconditionFailed(`complete "${name}"`, name, result.current);
          throw new HttpError(412, refused.code, `${refused.message}; the session was removed`, {
            extra: refused.extra,
          });
        }
        if (result.reason === "incomplete") {
          const what = result.code === "missing-segments" ? "are missing" : "do not end with a line break";
          throw new HttpError(409, result.code, `Cannot complete "${name}": segments ${result.indexes} ${what}`, {
            extra: result.code === "missing-segments" ? { missing: result.indexes } : { segments: result.indexes },
          });
        }
        if (result.reason === "too-large") throw new HttpError(413, "file-too-large", result.detail);
        throw new HttpError(502, "storage-failed", result.detail);
      },
    ),
    route("DELETE", "/files/:name/uploads/:sessionId", "write", async ({ params: { name, sessionId }, scope }) => {
      if (!(await scope.coordinatorOf(name).abortSession(sessionId))) throw noSession(name, sessionId);
      return new Response(null, { status: 204 });
    }),
  ];
}

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8" };

/**
 * Refuses, before it is written, a segment `index` of `length` bytes that would take the session past
 * `maxUploadBytes` (a session could otherwise store any number of segments it can never complete).
 *
 * @throws {HttpError} `413 file-too-large`.
 */
function refuseOverLimit(name: string, session: SessionView, index: number, length: number, maxUploadBytes: number) {
  const others = session.segments.reduce((sum, segment) => sum + (segment.index === index ? 0 : segment.bytes), 0);
  if (others + length <= maxUploadBytes) return;
  throw new HttpError(
    413,
    "file-too-large",
    `Cannot store segment ${index} of "${name}": the session would hold ${others + length} bytes, ` +
      `more than the ${maxUploadBytes} a file may have`,
  );
}

/** A segment's summary as clients see it: the part count instead of the part records. */
function receipt(summary: SegmentSummary): SegmentReceipt {
  const { parts, ...rest } = summary;
  return { ...rest, parts: parts.length };
}

/** A segment index from the path: a decimal integer from 0 to 9,999. */
function segmentIndex(text: string): number {
  const index = /^(0|[1-9][0-9]{0,3})$/.test(text) ? Number(text) : Number.NaN;
  if (!(index < MAX_SEGMENTS)) {
    throw new HttpError(
      400,
      "invalid-segment-index",
      `Cannot use segment "${text}": expected 0 to ${MAX_SEGMENTS - 1}`,
    );
  }
  return index;
}

/** The `{ "segments": N }` body of a completion. */
async function segmentCount(request: Request, pace: ReadPace, drainBytes: number): Promise<number> {
  const what = 'the completion: expected JSON { "segments": N }';
  const body = await readJsonBody(request, { maxBytes: MAX_COMPLETION_BYTES, what, pace, drainBytes });
  const count = (body as Partial<Record<keyof CompleteSessionRequest, unknown>> | null)?.segments;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_SEGMENTS) {
    throw new HttpError(
      400,
      "invalid-body",
      `Cannot complete: "segments" must be a whole number from 1 to ${MAX_SEGMENTS}`,
    );
  }
  return count;
}
