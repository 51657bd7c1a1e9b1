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
import { readSettings } from "./settings.ts";

export default {
  async fetch(request: Request, env: DrainpipeEnv): Promise<Response> {
    try {
      const settings = readSettings(env);
      await authorize(request, settings, request.method === "GET" || request.method === "HEAD" ? "read" : "write");
      return await createRouter(fileRoutes(env, settings))(request);
    } catch (error) {
      return errorResponse(error);
    }
  },
} satisfies ExportedHandler<DrainpipeEnv>;
