/**
 * The drainpipe worker: POST a newline-separated numbers file, get newline-aligned parts and a manifest in
 * R2. See `file-routes.ts` for the API, `settings.ts` for configuration, `authorize.ts` for authentication.
 *
 * @module
 */
import { authorize } from "./authorize.ts";
import type { DrainpipeEnv } from "./env.ts";
import { fileRoutes } from "./file-routes.ts";
import { errorResponse } from "./http-error.ts";
import { createRouter } from "./router.ts";
import { readSettings, type Settings } from "./settings.ts";

/** What the worker builds from one environment: its settings and its router (with the R2 store). */
interface Configured {
  settings: Settings;
  handle: (request: Request, ctx: ExecutionContext) => Promise<Response>;
}

/**
 * One {@linkcode Configured} per environment object, built on its first request. A malformed setting is not
 * cached: {@linkcode readSettings} throws again on every request, which then answers `500 misconfigured`.
 */
const configured = new WeakMap<DrainpipeEnv, Configured>();

function configure(env: DrainpipeEnv): Configured {
  let worker = configured.get(env);
  if (worker === undefined) {
    const settings = readSettings(env);
    worker = { settings, handle: createRouter(fileRoutes(env, settings)) };
    configured.set(env, worker);
  }
  return worker;
}

export { FileCoordinator } from "../coordinator/file-coordinator.ts";

export default {
  async fetch(request: Request, env: DrainpipeEnv, ctx: ExecutionContext): Promise<Response> {
    try {
      const { settings, handle } = configure(env);
      await authorize(request, settings, request.method === "GET" || request.method === "HEAD" ? "read" : "write");
      return await handle(request, ctx);
    } catch (error) {
      return errorResponse(error);
    }
  },
} satisfies ExportedHandler<DrainpipeEnv>;
