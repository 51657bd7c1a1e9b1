/**
 * `GET /limits`: the worker's limits as a client sizes its requests by them, answered from the settings alone (no
 * storage, no coordinator: no subrequest), so asking costs one cheap round trip.
 *
 * @module
 */
import type { WorkerLimits } from "../http-contract/bodies.ts";
import type { RequestScope } from "./request-scope.ts";
import { type Route, routeBuilder } from "./router.ts";
import { MAX_SEGMENTS } from "./session-routes.ts";
import type { Settings } from "./settings.ts";

/**
 * The route of `GET /limits` (and `HEAD`), answering {@linkcode WorkerLimits} of `settings`.
 *
 * @example
 * ```ts
 * import { createRouter } from "./router.ts";
 * import { readSettings } from "./settings.ts";
 * const handle = createRouter([limitsRoute(readSettings({ PLAN: "free", MAX_SEGMENT_BYTES: "3000000" }))]);
 * ```
 */
export function limitsRoute(settings: Settings): Route<RequestScope> {
  const limits: WorkerLimits = {
    plan: settings.plan,
    subrequests: settings.subrequests,
    maxSegmentBytes: settings.maxSegmentBytes,
    maxUploadBytes: settings.maxUploadBytes,
    maxUploadNumbers: settings.maxUploadNumbers,
    defaultMaxPartBytes: settings.defaultMaxPartBytes,
    maxSegments: MAX_SEGMENTS,
  };
  return routeBuilder<RequestScope>()("GET", "/limits", "read", async () => Response.json(limits));
}
