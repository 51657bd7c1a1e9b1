import { type CoordinatorEnv, FileCoordinator } from "../coordinator/file-coordinator.ts";
import { type Access, authorize } from "./authorize.ts";
import { cacheControl, withAnswerHeaders } from "./cache-control.ts";
import { preflight, withCors } from "./cors.ts";
import type { DrainpipeEnv } from "./env.ts";
import { fileRoutes } from "./file-routes.ts";
import { errorResponse, HttpError } from "./http-error.ts";
import { type RequestScope, requestScope } from "./request-scope.ts";
import { createRouter, type RoutedRequest, withoutBody } from "./router.ts";
import { readSettings, type Settings } from "./settings.ts";
import { isTusPath, TUS_RESUMABLE } from "./tus-protocol.ts";

/** Options of {@linkcode createWorker}. */
export interface WorkerOptions {
  /**
   * The path the API is mounted under, e.g. `"/numbers"`: `POST /numbers/files/primes` stores a file named
   * `primes`. Default `""`: the API at the root (`POST /files/primes`). A trailing `/` is ignored.
   */
  prefix?: string;
  /** The name of the R2 bucket binding in the worker's environment. Default `"BUCKET"`. */
  bucket?: string;
  /**
   * The name of the Durable Object namespace binding of the file coordinators (bound to the class
   * {@linkcode DrainpipeWorker.FileCoordinator}). Default `"COORDINATOR"`.
   */
  coordinator?: string;
}

/** The environment a mounted worker receives: its bindings under the names given in {@linkcode WorkerOptions}. */
export type MountedEnv = Record<string, unknown>;

/** The class of the file coordinator Durable Object, as a worker module exports it. */
export type FileCoordinatorClass = new (ctx: DurableObjectState, env: MountedEnv) => FileCoordinator;

/** A mountable drainpipe API, made by {@linkcode createWorker}. */
export interface DrainpipeWorker {
  /** The path prefix the API answers under (`""` for the root). */
  readonly prefix: string;
  /** Whether `request`'s path lies under {@linkcode DrainpipeWorker.prefix}, i.e. {@linkcode fetch} handles it. */
  matches(request: Request): boolean;
  /**
   * Answers one request of the API. A request whose path lies outside the prefix gets `404 not-found`; check
   * {@linkcode matches} first to serve other paths yourself.
   */
  fetch(request: Request, env: MountedEnv, ctx: ExecutionContext): Promise<Response>;
  /**
   * The file coordinator Durable Object class reading the bucket binding named in the options. Export it from
   * the worker's main module under the `class_name` of its `[[durable_objects.bindings]]` entry.
   */
  readonly FileCoordinator: FileCoordinatorClass;
}

/** What the API builds from one environment: its settings, its bindings and its router. */
interface Configured {
  settings: Settings;
  bindings: Pick<DrainpipeEnv, "BUCKET" | "COORDINATOR">;
  route: (request: Request) => RoutedRequest<RequestScope>;
}

/**
 * Builds drainpipe's HTTP API (see `docs/http-api.md`) as a handler that a worker of your own can serve
 * under a path prefix, with bindings of your own names. The settings (`API_TOKEN`, `AUTH_MODE`, `PUBLIC_READS`,
 * `DEFAULT_MAX_PART_BYTES`, `MAX_UPLOAD_BYTES`, `MAX_UPLOAD_NUMBERS`, `LEASE_SECONDS`, `READ_GRACE_SECONDS`) are read
 * from the environment under their usual names.
 *
 * @example
 * ```ts
 * const drainpipe = createWorker({ prefix: "/numbers", bucket: "NUMBERS", coordinator: "NUMBER_FILES" });
 *
 * // The Durable Object class, exported under the class_name that wrangler.toml binds as NUMBER_FILES.
 * export const FileCoordinator = drainpipe.FileCoordinator;
 *
 * export default {
 *   fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> | Response {
 *     if (drainpipe.matches(request)) return drainpipe.fetch(request, env, ctx);
 *     return new Response("my own app");
 *   },
 * };
 * ```
 */
export function createWorker(options: WorkerOptions = {}): DrainpipeWorker {
  const prefix = normalisePrefix(options.prefix ?? "");
  const bucket = options.bucket ?? "BUCKET";
  const coordinator = options.coordinator ?? "COORDINATOR";
  const plain = bucket === "BUCKET" && coordinator === "COORDINATOR";

  /** The environment under drainpipe's own binding names. */
  const drainpipeEnv = (env: MountedEnv): DrainpipeEnv =>
    plain
      ? (env as unknown as DrainpipeEnv)
      : ({ ...env, BUCKET: env[bucket], COORDINATOR: env[coordinator] } as DrainpipeEnv);

  // One configuration per environment object, built on its first request. A malformed setting is not cached:
  // `readSettings` throws again on every request, which then answers `500 misconfigured`.
  const configured = new WeakMap<object, Configured>();
  const configure = (env: MountedEnv): Configured => {
    let found = configured.get(env);
    if (found === undefined) {
      const mapped = drainpipeEnv(env);
      const settings = readSettings(mapped);
      const bindings = { BUCKET: mapped.BUCKET, COORDINATOR: mapped.COORDINATOR };
      found = { settings, bindings, route: createRouter(fileRoutes(settings, { prefix })) };
      configured.set(env, found);
    }
    return found;
  };

  const matches = (request: Request): boolean => underPrefix(new URL(request.url).pathname, prefix);

  const fetch = async (request: Request, env: MountedEnv, ctx: ExecutionContext): Promise<Response> => {
    let settings: Settings | undefined;
    let needed: Access = "read";
    // Every answer to a tus client says the protocol version, refusals before the routes (401) too.
    const always = isTusPath(new URL(request.url).pathname.slice(prefix.length)) ? TUS_RESUMABLE : {};
    try {
      const inner = prefix === "" ? request : withoutPrefix(request, prefix);
      const configuration = configure(env);
      settings = configuration.settings;
      const preflightAnswer = preflight(inner, settings);
      if (preflightAnswer !== null) return preflightAnswer;
      const routed = configuration.route(inner);
      needed = routed.access;
      await authorize(inner, settings, needed);
      const response = await routed.answer(ctx, requestScope(configuration.bindings, settings.subrequests));
      const answer = withAnswerHeaders(response, cacheControl(request.method, needed, settings), always);
      return withCors(answer, request, settings);
    } catch (error) {
      let response = errorResponse(error);
      if (request.method === "HEAD") response = await withoutBody(response);
      if (settings === undefined) {
        for (const [header, value] of Object.entries(always)) response.headers.set(header, value);
        return response;
      }
      const answer = withAnswerHeaders(response, cacheControl(request.method, needed, settings), always);
      return withCors(answer, request, settings);
    }
  };

  const Coordinator: FileCoordinatorClass =
    bucket === "BUCKET"
      ? (FileCoordinator as unknown as FileCoordinatorClass)
      : class MountedFileCoordinator extends FileCoordinator {
          constructor(ctx: DurableObjectState, env: MountedEnv) {
            super(ctx, { BUCKET: env[bucket] } as CoordinatorEnv);
          }
        };

  return { prefix, matches, fetch, FileCoordinator: Coordinator };
}

/** `"/numbers/"` and `"numbers"` become `"/numbers"`; `"/"` becomes `""`. */
function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, "");
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

function underPrefix(path: string, prefix: string): boolean {
  return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
}

/** The request with its path relative to `prefix`, or a 404 when the path lies outside. */
function withoutPrefix(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  if (!underPrefix(url.pathname, prefix)) {
    throw new HttpError(404, "not-found", `No route for ${request.method} ${url.pathname}`);
  }
  url.pathname = url.pathname.slice(prefix.length) || "/";
  return new Request(url, request);
}
