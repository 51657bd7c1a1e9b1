/**
 * The drainpipe worker: POST a newline-separated numbers file, get newline-aligned parts and a manifest in
 * R2. See `file-routes.ts` for the API.
 *
 * @module
 */
import type { DrainpipeEnv } from "./env.ts";
import { fileRoutes } from "./file-routes.ts";
import { errorResponse } from "./http-error.ts";
import { createRouter } from "./router.ts";

export default {
  async fetch(request: Request, env: DrainpipeEnv): Promise<Response> {
    try {
      return await createRouter(fileRoutes(env))(request);
    } catch (error) {
      return errorResponse(error);
    }
  },
} satisfies ExportedHandler<DrainpipeEnv>;
