/**
 * The drainpipe worker: POST a newline-separated numbers file, get newline-aligned parts and a manifest in
 * R2. See `file-routes.ts` for the API, `settings.ts` for configuration, `authorize.ts` for authentication,
 * and {@linkcode createWorker} to serve the API from a worker of your own.
 *
 * The default export is this project's worker (`wrangler.toml`): the API at the root, with the bindings
 * `BUCKET` and `COORDINATOR`.
 *
 * @module
 */

import { createWorker } from "./create-worker.ts";
import type { DrainpipeEnv } from "./env.ts";

export { FileCoordinator } from "../coordinator/file-coordinator.ts";
export type {
  CompleteSessionRequest,
  ErrorBody,
  FileList,
  FileSummary,
  Manifest,
  OpenSessionEntry,
  RemnantsRemoved,
  SegmentReceipt,
  SessionDescription,
  SessionWithSegments,
  SweepResult,
  UploadInFlight,
  UploadsListing,
} from "../http-contract/bodies.ts";
export {
  createWorker,
  type DrainpipeWorker,
  type FileCoordinatorClass,
  type MountedEnv,
  type WorkerOptions,
} from "./create-worker.ts";
export type { DrainpipeEnv } from "./env.ts";

const worker = createWorker();

export default {
  fetch(request: Request, env: DrainpipeEnv, ctx: ExecutionContext): Promise<Response> {
    return worker.fetch(request, env as unknown as Record<string, unknown>, ctx);
  },
} satisfies ExportedHandler<DrainpipeEnv>;
